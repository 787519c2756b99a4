/**
 * Body decoding refuses what would cost the server more than the body is worth: nesting past the
 * limit on every path (JSON, YAML, apply configurations, patches), YAML alias bombs, a million
 * nested sequences; a 2 MiB `!!binary` value decodes in milliseconds, not seconds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_JSON_DEPTH } from '../machinery/object-shape.js';
import { StatusError } from '../machinery/status.js';
import { decodeApplyConfiguration, decodeObjectBody, decodePatchBody, jsonTextExceedsDepth } from './decode-body.js';
import { decodeYaml } from './yaml-decode.js';

const TARGET = { apiVersion: 'v1', version: 'v1', kind: 'ConfigMap', protobufMediaTypes: ['application/vnd.orch.protobuf'] };
const nestedJson = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

async function refusal(p: Promise<unknown> | (() => unknown)): Promise<StatusError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  assert.fail('expected a refusal');
}

/** Runs f and returns how long it held the thread (ms). */
/**
 * CPU milliseconds the process (the YAML worker thread included) spent in f: the work done,
 * which a machine busy with other work does not stretch as it stretches wall-clock time.
 */
async function timed(f: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  await f().catch(() => undefined);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe('JSON nesting on the text', () => {
  it('counts containers, not brackets inside strings', () => {
    assert.equal(jsonTextExceedsDepth(nestedJson(MAX_JSON_DEPTH)), false);
    assert.equal(jsonTextExceedsDepth(nestedJson(MAX_JSON_DEPTH + 1)), true);
    assert.equal(jsonTextExceedsDepth(JSON.stringify({ s: '['.repeat(5000), t: '\\"[[[' })), false);
  });

  it('refuses deep bodies on create, apply and patch with 400 before parsing', async () => {
    const deep = nestedJson(1_000_000);
    const create = await refusal(decodeObjectBody('application/json', Buffer.from(deep), TARGET));
    assert.equal(create.code, 400);
    assert.equal(create.message, `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: exceeded max depth of ${MAX_JSON_DEPTH}`);
    const apply = await refusal(decodeApplyConfiguration(nestedJson(5000), TARGET));
    assert.equal(apply.code, 400);
    assert.match(apply.message, /exceeded max depth/);
    const patch = await refusal(() => decodePatchBody(deep));
    assert.equal(patch.code, 400);
    assert.equal(patch.message, `error decoding patch: json: exceeded max depth of ${MAX_JSON_DEPTH}`);
  });

  it('reads bodies within the limit', async () => {
    const ok = await decodeObjectBody('application/json', Buffer.from(nestedJson(MAX_JSON_DEPTH)), TARGET);
    assert.equal(typeof ok.json, 'string');
    assert.deepEqual(await decodeApplyConfiguration('{"metadata":{"name":"a"}}', TARGET), { metadata: { name: 'a' } });
  });
});

describe('YAML bodies', () => {
  it('refuses a million nested sequences fast, in both block and flow style', async () => {
    for (const body of ['- '.repeat(1_000_000) + 'x', '['.repeat(1_000_000), `a:\n  b: ${'['.repeat(1_000_000)}`]) {
      let e: StatusError | undefined;
      const ms = await timed(async () => {
        e = await refusal(decodeObjectBody('application/yaml', Buffer.from(body), TARGET));
      });
      assert.equal(e?.code, 400);
      assert.match(e?.message ?? '', /^error converting YAML to JSON: yaml: line \d+: exceeded max depth of 1000$/);
      assert.ok(ms < 2000, `${ms} ms of CPU`);
    }
  });

  it('refuses alias expansion bombs as go-yaml words it', async () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const n of 'bcdefghi')
      laughs.push(
        `${n}: &${n} [${Array(9)
          .fill(`*${String.fromCharCode(n.charCodeAt(0) - 1)}`)
          .join(',')}]`,
      );
    const e = await refusal(decodeObjectBody('application/yaml', Buffer.from(laughs.join('\n')), TARGET));
    assert.equal(e.message, 'error converting YAML to JSON: yaml: document contains excessive aliasing');
    const apply = await refusal(decodeApplyConfiguration(laughs.join('\n'), TARGET));
    assert.equal(apply.message, 'error decoding YAML: yaml: document contains excessive aliasing');
  });

  it('decodes a 2 MiB !!binary value as its bytes, quickly', async () => {
    const bytes = Buffer.alloc(1536 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 251;
    const body = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bin\ndata:\n  k: !!binary ${bytes.toString('base64')}\n`;
    let value: unknown;
    const ms = await timed(async () => {
      value = (await decodeObjectBody('application/yaml', Buffer.from(body), TARGET)).value;
    });
    assert.equal(Buffer.from((value as { data: { k: string } }).data.k, 'latin1').equals(bytes), true);
    assert.ok(ms < 1000, `${ms} ms of CPU`);
  });

  it('keeps the rules of each path: create refuses repeated keys, apply lets the last win and reads YAML 1.1', async () => {
    const dup = 'metadata:\n  name: a\n  name: b\n' + '#'.repeat(600);
    const e = await refusal(decodeObjectBody('application/yaml', Buffer.from(dup), TARGET));
    assert.match(e.message, /^error converting YAML to JSON: yaml: mapping key "name" already defined/);
    assert.deepEqual(await decodeApplyConfiguration(`${dup}\nx: yes`, TARGET), { metadata: { name: 'b' }, x: true });
    assert.deepEqual(await decodeApplyConfiguration('', TARGET), {});
  });

  it('refuses a repeated key among 100,000 in linear time', () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `k${i}: v`);
    const start = process.cpuUsage();
    assert.throws(() => decodeYaml(`${keys.join('\n')}\nk5: again`, { maxDepth: MAX_JSON_DEPTH, uniqueKeys: true }), /"k5" already defined/);
    const used = process.cpuUsage(start);
    assert.ok((used.user + used.system) / 1000 < 20_000);
  });
});
