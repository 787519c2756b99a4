import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { decodeYamlOffThread, encodeYamlOffThread } from './yaml-pool.js';
import { yamlOf } from './yaml-encode.js';
import { YamlDecodeError } from './yaml-decode.js';

const OPTS = { maxDepth: 1000, uniqueKeys: true };

describe('YAML decoding off the request thread', () => {
  it('gives the same value for a tiny document (in place) and a large one (in a worker)', async () => {
    const doc = 'a: 1.5\nb: [1, "x", null]\nc: {d: true}\n';
    const small = await decodeYamlOffThread(doc, OPTS);
    const large = (await decodeYamlOffThread(`${doc}pad: "${'p'.repeat(4096)}"\n`, OPTS)) as Record<string, unknown>;
    delete large.pad;
    assert.deepEqual(small, { a: 1.5, b: [1, 'x', null], c: { d: true } });
    assert.deepEqual(large, small);
  });

  it('decodes many documents at once, each answered with its own value, while the loop stays free', async () => {
    const docs = Array.from({ length: 6 }, (_, i) => `n: ${i}\nitems:\n${'- x\n'.repeat(20_000)}`);
    let worstGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
    }, 2);
    const values = (await Promise.all(docs.map((d) => decodeYamlOffThread(d, OPTS)))) as { n: number; items: string[] }[];
    clearInterval(timer);
    assert.deepEqual(
      values.map((v) => [v.n, v.items.length]),
      docs.map((_, i) => [i, 20_000]),
    );
    assert.ok(worstGap < 250, `the loop waited ${worstGap.toFixed(0)} ms`);
  });

  it('passes a worker-side failure back as a YamlDecodeError', async () => {
    await assert.rejects(decodeYamlOffThread(`a: [${'1,'.repeat(1000)}`, OPTS), YamlDecodeError);
  });
});

test('a large YAML response is encoded in a worker, as the in-place encoder writes it, without holding the loop', async () => {
  const labels: Record<string, string> = {};
  for (let i = 0; i < 50_000; i++) labels[`k${i}`] = 'v';
  const list = {
    kind: 'ConfigMapList',
    apiVersion: 'v1',
    metadata: { resourceVersion: '5' },
    items: [{ metadata: { name: 'a', labels } }, { data: { 'x.y': 'multi\nline', n: '1' } }],
  };
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const started = performance.now();
  const json = Buffer.from(JSON.stringify(list));
  const yaml = (await encodeYamlOffThread(json, true)).toString('utf8');
  const tookMs = performance.now() - started;
  clearInterval(timer);
  assert.equal(yaml, yamlOf(list));
  // An owned buffer moved to the worker: the caller's is detached, nothing was copied.
  assert.equal(json.length, 0);
  assert.ok(ticks >= Math.min(5, tookMs / 10), `the loop ran ${ticks} times during ${tookMs.toFixed(0)} ms of encoding`);
  // Small values are encoded in place, the same way.
  assert.equal((await encodeYamlOffThread(Buffer.from(JSON.stringify({ a: [1, 'two'] })))).toString('utf8'), yamlOf({ a: [1, 'two'] }));
});
