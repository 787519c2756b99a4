/**
 * Chunked lists (limit/continue) as clients use them: every object exactly once, every chunk
 * from the first chunk's snapshot, remainingItemCount, 410 Expired (with upstream's message and
 * a token to go on with) once the snapshot's revision is compacted, 400 for a tampered token,
 * and kubectl --chunk-size over 2,000 objects.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawResponse } from './helpers/cluster.js';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';
import { delay, inParallel, keepAliveClient, type Client } from './helpers/watch-client.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

let fresh: TestCluster;
let compacting: TestCluster;
let api: Client;
let capi: Client;

const cmPath = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;
const pad = (i: number) => String(i).padStart(2, '0');

async function list(c: Client, ns: string, query: Record<string, string>): Promise<RawResponse> {
  return c.req('GET', `${cmPath(ns)}?${new URLSearchParams(query).toString()}`);
}

function ok(r: RawResponse): any {
  assert.equal(r.status, 200, `expected 200, got ${r.status}: ${r.text.slice(0, 400)}`);
  return r.json;
}

/** Follows continue tokens from a first query; returns every chunk. */
async function allChunks(c: Client, ns: string, query: Record<string, string>): Promise<any[]> {
  const chunks = [ok(await list(c, ns, query))];
  while (chunks[chunks.length - 1].metadata.continue) {
    assert.ok(chunks.length < 10_000, 'the chunks never end');
    const { limit, labelSelector } = query;
    const next: Record<string, string> = { continue: chunks[chunks.length - 1].metadata.continue, ...(limit ? { limit } : {}) };
    if (labelSelector) next.labelSelector = labelSelector;
    chunks.push(ok(await list(c, ns, next)));
  }
  return chunks;
}

const names = (l: any): string[] => l.items.map((i: any) => i.metadata.name);

async function createMany(c: Client, ns: string, count: number, make: (i: number) => object): Promise<void> {
  await c.ok('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await inParallel(
    Array.from({ length: count }, (_, i) => i),
    16,
    (i) => c.ok('POST', cmPath(ns), make(i)),
  );
}

before(async () => {
  [fresh, compacting] = await Promise.all([startTestCluster(), startTestCluster({ compactionIntervalMs: 300 })]);
  api = keepAliveClient(fresh);
  capi = keepAliveClient(compacting);
});

after(async () => {
  api?.close();
  capi?.close();
  await Promise.all([fresh?.close(), compacting?.close()]);
});

describe('limit and continue', () => {
  before(async () => {
    await createMany(api, 'pg', 25, (i) => ({ metadata: { name: `p${pad(i)}` }, data: { v: '1' } }));
    await createMany(api, 'pgs', 25, (i) => ({ metadata: { name: `s${pad(i)}`, labels: { odd: String(i % 2 === 1) } } }));
  });

  it('returns every object exactly once, in key order, with remainingItemCount and a constant ListMeta resourceVersion', async () => {
    const chunks = await allChunks(api, 'pg', { limit: '10' });
    assert.deepEqual(
      chunks.map((c) => c.items.length),
      [10, 10, 5],
    );
    assert.deepEqual(
      chunks.map((c) => c.metadata.remainingItemCount),
      [15, 5, undefined],
    );
    assert.equal(chunks[2].metadata.continue, undefined);
    assert.equal(new Set(chunks.map((c) => c.metadata.resourceVersion)).size, 1);
    assert.deepEqual(
      chunks.flatMap(names),
      Array.from({ length: 25 }, (_, i) => `p${pad(i)}`),
    );
    assert.deepEqual(names(ok(await list(api, 'pg', {}))), chunks.flatMap(names));
  });

  it('serves every chunk from the first chunk’s snapshot: writes in between are not visible', async () => {
    const first = ok(await list(api, 'pg', { limit: '10' }));
    const rv = first.metadata.resourceVersion;
    // Changes ahead of the cursor and behind it, after the first chunk was served.
    await api.ok('POST', cmPath('pg'), { metadata: { name: 'p99' } });
    await api.ok('POST', cmPath('pg'), { metadata: { name: 'p125' } });
    await api.ok('POST', cmPath('pg'), { metadata: { name: 'p005' } });
    await api.ok('DELETE', `${cmPath('pg')}/p20`);
    await api.ok('PUT', `${cmPath('pg')}/p15`, { metadata: { name: 'p15' }, data: { v: '2' } });
    const rest = [];
    let token = first.metadata.continue;
    while (token) {
      const next = ok(await list(api, 'pg', { limit: '10', continue: token }));
      assert.equal(next.metadata.resourceVersion, rv, 'ListMeta resourceVersion stays the snapshot’s');
      rest.push(...next.items);
      token = next.metadata.continue;
    }
    assert.deepEqual(
      [...names(first), ...rest.map((i: any) => i.metadata.name)],
      Array.from({ length: 25 }, (_, i) => `p${pad(i)}`),
    );
    assert.deepEqual(rest.find((i: any) => i.metadata.name === 'p15').data, { v: '1' });
    // A new list sees the new state.
    const now = names(ok(await list(api, 'pg', {})));
    for (const n of ['p99', 'p125', 'p005']) assert.ok(now.includes(n), n);
    assert.ok(!now.includes('p20'));
  });

  it('fills chunks with matching objects only under a label selector, without remainingItemCount', async () => {
    const chunks = await allChunks(api, 'pgs', { limit: '4', labelSelector: 'odd=true' });
    for (const c of chunks) {
      assert.ok(c.items.length <= 4);
      assert.equal(c.metadata.remainingItemCount, undefined);
    }
    assert.deepEqual(
      chunks.slice(0, 3).map((c) => c.items.length),
      [4, 4, 4],
    );
    assert.deepEqual(
      chunks.flatMap(names),
      Array.from({ length: 12 }, (_, i) => `s${pad(2 * i + 1)}`),
    );
  });

  it('a limit above the collection size returns everything, with no continue', async () => {
    const l = ok(await list(api, 'pgs', { limit: '500' }));
    assert.equal(l.items.length, 25);
    assert.equal(l.metadata.continue, undefined);
    assert.equal(l.metadata.remainingItemCount, undefined);
  });

  it('limit=1 walks the collection one object at a time', async () => {
    const chunks = await allChunks(api, 'pgs', { limit: '1' });
    assert.equal(chunks.flatMap(names).length, 25);
    assert.deepEqual(
      chunks.map((c) => c.metadata.remainingItemCount),
      [...Array.from({ length: 24 }, (_, i) => 23 - i + 1), undefined],
    );
  });
});

describe('tampered continue tokens: 400', () => {
  let good = '';
  before(async () => {
    await createMany(api, 'pgt', 5, (i) => ({ metadata: { name: `t${i}` } }));
    good = ok(await list(api, 'pgt', { limit: '2' })).metadata.continue;
    assert.ok(good);
  });

  const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
  const decoded = () => JSON.parse(Buffer.from(good, 'base64url').toString('utf8'));
  const cases: [string, () => string][] = [
    ['not base64', () => 'not a token!'],
    ['base64 of something that is not JSON', () => b64('hello, world')],
    ['JSON that is not a token', () => b64({ hello: 'world' })],
    ['a token whose resourceVersion is 0', () => b64({ ...decoded(), rv: 0 })],
    ['a token whose resourceVersion is not a number', () => b64({ ...decoded(), rv: 'x' })],
    ['a token of another API version', () => b64({ ...decoded(), v: 'meta.example.com' })],
    ['a token whose start escapes the collection', () => b64({ ...decoded(), start: '../../secrets/x' })],
    ['a token cut short', () => good.slice(0, good.length - 6)],
  ];
  for (const [what, token] of cases) {
    it(what, async () => {
      const r = await list(api, 'pgt', { limit: '2', continue: token() });
      assert.equal(r.status, 400, `${r.status}: ${r.text.slice(0, 300)}`);
      assert.equal(r.json.kind, 'Status');
      assert.equal(r.json.reason, 'BadRequest');
      assert.match(r.json.message, /continue/);
    });
  }
});

describe('an expired continue token', () => {
  it('gives 410 Expired with upstream’s message and a token that continues from the current state', async () => {
    await createMany(capi, 'pc', 10, (i) => ({ metadata: { name: `c${i}` } }));
    const first = ok(await list(capi, 'pc', { limit: '3' }));
    const rv = Number(first.metadata.resourceVersion);
    assert.deepEqual(names(first), ['c0', 'c1', 'c2']);
    // The compactor keeps one interval (300 ms) of history: write until the snapshot is gone.
    const deadline = Date.now() + 10_000;
    for (let i = 0; ; i++) {
      await capi.ok('POST', cmPath('pc'), { metadata: { name: `z${i}` } });
      const probe = await list(capi, 'pc', { resourceVersion: String(rv), resourceVersionMatch: 'Exact' });
      if (probe.status === 410) break;
      assert.ok(Date.now() < deadline, 'history was never compacted');
      await delay(100);
    }
    const r = await list(capi, 'pc', { limit: '3', continue: first.metadata.continue });
    assert.equal(r.status, 410, `${r.status}: ${r.text.slice(0, 300)}`);
    const s = r.json;
    assert.equal(s.kind, 'Status');
    assert.equal(s.status, 'Failure');
    assert.equal(s.reason, 'Expired');
    assert.equal(s.code, 410);
    assert.equal(
      s.message,
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    );
    // As the message says, the Status carries a token for the remainder (read at the latest revision).
    assert.ok(s.metadata?.continue, `no continue token in ${r.text}`);
    const rest = await allChunks(capi, 'pc', { limit: '3', continue: s.metadata.continue });
    const restNames = rest.flatMap(names);
    assert.deepEqual(restNames.slice(0, 7), ['c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9']);
    assert.ok(restNames.includes('z0'), 'objects created after the first chunk show up');
    assert.ok(
      rest.every((c) => Number(c.metadata.resourceVersion) > rv),
      'the remainder is read at a newer revision',
    );
  });
});

describe('kubectl get --chunk-size', () => {
  let cacheDir = '';
  before(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'kubectl-cache-'));
    await createMany(api, 'chunk', 2000, (i) => ({ metadata: { name: `cm-${String(i).padStart(4, '0')}` }, data: { i: String(i) } }));
  });
  after(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  const kubectl = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        KUBECTL,
        ['--kubeconfig', fresh.kubeconfigPath, '--cache-dir', cacheDir, ...args],
        { timeout: 30_000, maxBuffer: 64 * 1024 * 1024 },
        (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('returns all 2,000 objects once, in 20 requests of 100', async () => {
    const expected = names(ok(await list(api, 'chunk', {})));
    assert.equal(expected.length, 2000);
    const r = await kubectl('get', 'configmaps', '-n', 'chunk', '--chunk-size=100', '-o', 'name', '-v=6');
    assert.equal(r.code, 0, r.stderr.slice(-2000));
    const got = r.stdout.trim().split('\n');
    assert.equal(got.length, 2000);
    assert.equal(new Set(got).size, 2000, 'no object twice');
    assert.deepEqual(
      got,
      expected.map((n) => `configmap/${n}`),
    );
    const requests = r.stderr.split('\n').filter((l) => /"Response" verb="GET".*\/namespaces\/chunk\/configmaps\?/.test(l));
    assert.equal(requests.length, 20, requests.join('\n'));
    assert.ok(requests.every((l) => /limit=100/.test(l)));
    assert.equal(requests.filter((l) => /continue=/.test(l)).length, 19);
  });

  it('the default table output lists them all as well', async () => {
    const r = await kubectl('get', 'configmaps', '-n', 'chunk', '--chunk-size=100', '--no-headers');
    assert.equal(r.code, 0, r.stderr.slice(-2000));
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/)[0]);
    assert.equal(rows.length, 2000);
    assert.equal(new Set(rows).size, 2000);
  });
});
