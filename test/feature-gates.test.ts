/**
 * Each API server feature gate switches its feature: the same requests against a server with
 * the defaults and against servers with gates off (`--feature-gates`).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

const NS = '/api/v1/namespaces/default/configmaps';
const configMap = (name: string, data: Record<string, string> = { k: 'v' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

let on: TestCluster;
let off: TestCluster;
let noCount: TestCluster;

async function seed(c: TestCluster): Promise<void> {
  for (const name of ['a', 'b', 'c']) assert.equal((await request(c, 'POST', NS, { body: configMap(name) })).status, 201);
  // A body past the 128 KiB compression threshold.
  assert.equal((await request(c, 'POST', NS, { body: configMap('big', { k: 'x'.repeat(200 * 1024) }) })).status, 201);
}

before(async () => {
  [on, off, noCount] = await Promise.all([
    startTestCluster({ storageBackend: 'memory' }),
    startTestCluster({
      storageBackend: 'memory',
      featureGates: { APIListChunking: false, APIResponseCompression: false, WarningHeaders: false, DryRun: false, StorageVersionHash: false },
    }),
    startTestCluster({ storageBackend: 'memory', featureGates: { RemainingItemCount: false } }),
  ]);
  await Promise.all([on, off, noCount].map(seed));
});
after(() => Promise.all([on, off, noCount].map((c) => c.close())));

describe('feature gates switch their features', () => {
  it('APIResponseCompression=false: large responses are not gzipped', async () => {
    const headers = { 'accept-encoding': 'gzip' };
    assert.equal((await request(on, 'GET', `${NS}/big`, { headers })).headers['content-encoding'], 'gzip');
    const plain = await request(off, 'GET', `${NS}/big`, { headers });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.json.metadata.name, 'big');
  });

  it('WarningHeaders=false: no Warning headers', async () => {
    const unknownField = { ...configMap('w'), spec: {} };
    assert.match(String((await request(on, 'POST', NS, { body: unknownField })).headers.warning), /299 - "unknown field \\"spec\\""/);
    const r = await request(off, 'POST', NS, { body: unknownField });
    assert.equal(r.status, 201);
    assert.equal(r.headers.warning, undefined);
  });

  it('APIListChunking=false: limit and continue are ignored, the whole list is served', async () => {
    const chunk = await request(on, 'GET', `${NS}?limit=1`);
    assert.equal(chunk.json.items.length, 1);
    assert.ok(chunk.json.metadata.continue);
    const whole = await request(off, 'GET', `${NS}?limit=1`);
    assert.ok(whole.json.items.length >= 4);
    assert.equal(whole.json.metadata.continue, undefined);
    assert.equal((await request(off, 'GET', `${NS}?limit=1&continue=garbage`)).status, 200);
  });

  it('RemainingItemCount=false: chunks say there is more but not how many', async () => {
    const all = (await request(on, 'GET', NS)).json.items.length;
    assert.equal((await request(on, 'GET', `${NS}?limit=1`)).json.metadata.remainingItemCount, all - 1);
    const chunk = await request(noCount, 'GET', `${NS}?limit=1`);
    assert.ok(chunk.json.metadata.continue);
    assert.equal(chunk.json.metadata.remainingItemCount, undefined);
  });

  it('DryRun=false: a dry-run write is 400 as upstream, a real one still works', async () => {
    assert.equal((await request(on, 'POST', `${NS}?dryRun=All`, { body: configMap('d') })).status, 201);
    const r = await request(off, 'POST', `${NS}?dryRun=All`, { body: configMap('d') });
    assert.equal(r.status, 400);
    assert.equal(r.json.message, 'the dryRun feature is disabled');
    assert.equal((await request(off, 'DELETE', `${NS}/a?dryRun=All`)).json.message, 'the dryRun feature is disabled');
    assert.equal((await request(off, 'GET', `${NS}/a`)).status, 200, 'the refused dry-run delete deleted nothing');
  });

  it('StorageVersionHash=false: discovery names no storage version hash', async () => {
    const hashOf = (doc: { resources: { name: string; storageVersionHash?: string }[] }) =>
      doc.resources.find((r) => r.name === 'configmaps')?.storageVersionHash;
    assert.ok(hashOf((await request(on, 'GET', '/api/v1')).json));
    assert.equal(hashOf((await request(off, 'GET', '/api/v1')).json), undefined);
  });
});
