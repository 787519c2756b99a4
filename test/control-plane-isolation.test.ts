/**
 * The embedded control plane's test isolation, through the package's API: `reset()` returns
 * the store to its start-up state with writes watchers see and resourceVersions that only grow,
 * and `createNamespace()` namespaces go away with their contents.
 */
import assert from 'node:assert/strict';
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ControlPlane, startControlPlane } from '../src/index.js';

interface WatchEvent {
  type: string;
  object: { metadata: { name: string; namespace?: string; resourceVersion: string } };
}

/** Opens a watch and collects its events until stopped. */
function watch(cp: ControlPlane, path: string): { events: WatchEvent[]; stop(): void } {
  const events: WatchEvent[] = [];
  const url = new URL(cp.url);
  let buffered = '';
  const req = https.get({ host: url.hostname, port: url.port, path, ca: cp.caPem, cert: cp.adminCertPem, key: cp.adminKeyPem, agent: false }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        events.push(JSON.parse(buffered.slice(0, nl)));
        buffered = buffered.slice(nl + 1);
      }
    });
    res.on('error', () => {});
  });
  req.on('error', () => {});
  return { events, stop: () => req.destroy() };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const rvOf = (cp: ControlPlane, path: string) =>
  cp.request('GET', path).then((r) => Number(r.json<{ metadata: { resourceVersion: string } }>().metadata.resourceVersion));

describe('reset()', () => {
  let cp: ControlPlane;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-reset-'));
    cp = await startControlPlane({ dataDir: dir, securePort: 0, storageBackend: 'memory', controllers: false });
  });
  after(async () => {
    await cp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('deletes what was created, restores what was changed or deleted, and watchers see it with growing resourceVersions', async () => {
    const start = await rvOf(cp, '/api/v1/namespaces');
    const w = watch(cp, `/api/v1/configmaps?watch=1&resourceVersion=${start}`);
    const created = await cp.request('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'made-by-test' }, data: { a: '1' } } });
    assert.equal(created.status, 201, created.body);
    const role = '/apis/rbac.authorization.orch.io/v1/clusterroles/view';
    const before = (await cp.request('GET', role)).json<{ rules: unknown[] }>();
    assert.equal((await cp.request('PATCH', role, { body: { rules: [] } })).status, 200);
    const binding = '/apis/rbac.authorization.orch.io/v1/clusterrolebindings/system:discovery';
    assert.equal((await cp.request('DELETE', binding)).status, 200);
    const beforeReset = await rvOf(cp, '/api/v1/namespaces');

    const result = await cp.reset();

    assert.deepEqual(result, { deleted: 1, restored: 2 });
    assert.equal((await cp.request('GET', '/api/v1/namespaces/default/configmaps/made-by-test')).status, 404);
    assert.deepEqual((await cp.request('GET', role)).json<{ rules: unknown[] }>().rules, before.rules);
    assert.equal((await cp.request('GET', binding)).status, 200);
    assert.ok((await rvOf(cp, '/api/v1/namespaces')) > beforeReset, 'resourceVersion went backwards or stood still');
    await until('the watcher saw the deletion', () => w.events.some((e) => e.type === 'DELETED' && e.object.metadata.name === 'made-by-test'));
    w.stop();
    const rvs = w.events.map((e) => Number(e.object.metadata.resourceVersion));
    assert.deepEqual(
      rvs,
      [...rvs].sort((a, b) => a - b),
      'watch events out of resourceVersion order',
    );
    assert.ok((rvs.at(-1) as number) > beforeReset - 1);
  });

  it('a second reset with nothing changed writes nothing', async () => {
    await cp.reset();
    assert.deepEqual(await cp.reset(), { deleted: 0, restored: 0 });
  });

  it('frees the cluster IPs of the Services it deletes', async () => {
    const body = { metadata: { name: 'web' }, spec: { clusterIP: '10.0.0.77', ports: [{ port: 80 }] } };
    assert.equal((await cp.request('POST', '/api/v1/namespaces/default/services', { body })).status, 201);
    await cp.reset();
    const again = await cp.request('POST', '/api/v1/namespaces/default/services', { body: { ...body, metadata: { name: 'web-again' } } });
    assert.equal(again.status, 201, again.body);
    await cp.reset();
  });
});

describe('reset() on the SQLite store', () => {
  it("reads the start-up state from the store's history", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-reset-sqlite-'));
    const cp = await startControlPlane({ dataDir: dir, securePort: 0, storageBackend: 'sqlite', controllers: false });
    try {
      const res = await cp.request('POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name: 'durable' } } });
      assert.equal(res.status, 201, res.body);
      assert.deepEqual(await cp.reset(), { deleted: 1, restored: 0 });
      assert.equal((await cp.request('GET', '/api/v1/namespaces/default/configmaps/durable')).status, 404);
    } finally {
      await cp.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('createNamespace()', () => {
  let cp: ControlPlane;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-ns-'));
    cp = await startControlPlane({ dataDir: dir, securePort: 0, storageBackend: 'memory' });
  });
  after(async () => {
    await cp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("start-up includes the controllers' first pass: a pod can be created in default at once", async () => {
    const pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    const res = await cp.request('POST', '/api/v1/namespaces/default/pods', { body: pod });
    assert.equal(res.status, 201, res.body);
    assert.equal((await cp.request('DELETE', '/api/v1/namespaces/default/pods/p?gracePeriodSeconds=0')).status, 200);
  });

  it('gives each test its own namespace and deletes it with its contents on dispose', async () => {
    const a = await cp.createNamespace();
    const b = await cp.createNamespace('mine-');
    assert.notEqual(a.name, b.name);
    assert.match(b.name, /^mine-[a-z0-9]{5}$/);
    const cm = await cp.request('POST', `/api/v1/namespaces/${a.name}/configmaps`, { body: { metadata: { name: 'x' } } });
    assert.equal(cm.status, 201, cm.body);
    await a.dispose();
    assert.equal((await cp.request('GET', `/api/v1/namespaces/${a.name}`)).status, 404);
    assert.equal((await cp.request('GET', `/api/v1/namespaces/${a.name}/configmaps/x`)).status, 404);
    await b[Symbol.asyncDispose]();
    assert.equal((await cp.request('GET', `/api/v1/namespaces/${b.name}`)).status, 404);
  });
});
