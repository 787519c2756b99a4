/**
 * Two API servers on one etcd are one cluster: a write through either is seen by watches and
 * lists on the other, a paginated list continues at its snapshot across writes elsewhere, and
 * when etcd goes away /readyz says so, writes fail cleanly, and both recover once it is back.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ControlPlaneOptions } from '../src/cmd/control-plane.js';
import { startTestCluster, request, type TestCluster } from './helpers/cluster.js';
import { type EtcdProcess, startEtcd } from './helpers/etcd.js';
import { kubectlFor } from './helpers/kubectl.js';
import { openWatch } from './helpers/watch-client.js';
import { Etcd3 } from 'etcd3';
import { advertiseAddress } from '../src/registry/kubernetes-service.js';

const configMap = (name: string, data: Record<string, string> = { k: 'v' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

describe('two API servers on one etcd', () => {
  let etcd: EtcdProcess;
  let a: TestCluster;
  let b: TestCluster;
  let scratch: string;

  before(async () => {
    etcd = await startEtcd();
    scratch = await mkdtemp(join(tmpdir(), 'orch-replicas-'));
    const shared: ControlPlaneOptions = { storageBackend: 'etcd3', etcd: { servers: [etcd.endpoint] }, controllers: false };
    a = await startTestCluster(shared);
    // The second replica serves with the first one's certificates, so one CA and one admin
    // credential work against both.
    b = await startTestCluster({ ...shared, certDir: join(a.dataDir, 'pki') });
  });

  after(async () => {
    await b?.close();
    await a?.close();
    await etcd?.destroy();
    await rm(scratch, { recursive: true, force: true });
  });

  it('the orch Service’s endpoints come from the lease reconciler: a lease with a TTL under /registry/masterleases/', async () => {
    const ip = advertiseAddress('127.0.0.1');
    const etcdClient = new Etcd3({ hosts: etcd.endpoint });
    try {
      const res = await etcdClient.kv.range({ key: Buffer.from(`/registry/masterleases/${ip}`) });
      assert.equal(res.kvs.length, 1);
      assert.notEqual(res.kvs[0].lease, '0', 'the lease key expires on its own');
      const ttl = await etcdClient.leaseClient.leaseTimeToLive({ ID: res.kvs[0].lease });
      assert.equal(Number(ttl.grantedTTL), 15);
    } finally {
      etcdClient.close();
    }
    const ep = await request(b, 'GET', '/api/v1/namespaces/default/endpoints/orch');
    assert.equal(ep.status, 200, ep.text);
    assert.deepEqual(
      ep.json.subsets[0].addresses.map((x: { ip: string }) => x.ip),
      [ip],
    );
  });

  it('kubectl create through A is seen by kubectl get -w on B', async () => {
    const onA = kubectlFor('1.33', a, join(scratch, 'cache-a'));
    const onB = kubectlFor('1.33', b, join(scratch, 'cache-b'));
    const watching = onB.start(['get', 'configmaps', '-n', 'default', '-w', '--output-watch-events']);
    try {
      // kubectl prints its list first (kube-root-ca.crt is not created without controllers).
      await new Promise((r) => setTimeout(r, 1500));
      await onA.ok(['create', 'configmap', 'seen-on-b', '-n', 'default', '--from-literal=k=v']);
      const line = await watching.waitForLine('stdout', /seen-on-b/, 10_000);
      assert.match(line, /ADDED\s+seen-on-b/);
    } finally {
      await watching.stop();
    }
  });

  it('resource versions are etcd revisions: a write through A is readable at its version on B', async () => {
    const created = await request(a, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('rv-check') });
    assert.equal(created.status, 201, created.text);
    const rv = created.json.metadata.resourceVersion as string;
    const got = await request(b, 'GET', `/api/v1/namespaces/default/configmaps/rv-check?resourceVersion=${rv}`);
    assert.equal(got.status, 200, got.text);
    assert.equal(got.json.metadata.resourceVersion, rv);
    // A list at "any" version on B waits for its cache to reach what the client saw.
    const list = await request(b, 'GET', `/api/v1/namespaces/default/configmaps?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`);
    assert.equal(list.status, 200, list.text);
    assert.ok(
      list.json.items.some((i: { metadata: { name: string } }) => i.metadata.name === 'rv-check'),
      list.text,
    );
  });

  it('a paginated list through B continues at its snapshot across a write through A', async () => {
    await request(a, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paging' } } });
    for (let i = 0; i < 5; i++) {
      const r = await request(a, 'POST', '/api/v1/namespaces/paging/configmaps', { body: configMap(`cm-${i}`) });
      assert.equal(r.status, 201, r.text);
    }
    const first = await request(b, 'GET', '/api/v1/namespaces/paging/configmaps?limit=2');
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(
      first.json.items.map((i: { metadata: { name: string } }) => i.metadata.name),
      ['cm-0', 'cm-1'],
    );
    assert.equal(first.json.metadata.remainingItemCount, 3);
    const token = first.json.metadata.continue as string;
    // Written through the other replica between the pages: not part of this list's snapshot.
    assert.equal((await request(a, 'POST', '/api/v1/namespaces/paging/configmaps', { body: configMap('cm-2a') })).status, 201);
    const names: string[] = [];
    let next: string | undefined = token;
    while (next) {
      const page = await request(b, 'GET', `/api/v1/namespaces/paging/configmaps?limit=2&continue=${encodeURIComponent(next)}`);
      assert.equal(page.status, 200, page.text);
      assert.equal(page.json.metadata.resourceVersion, first.json.metadata.resourceVersion);
      names.push(...page.json.items.map((i: { metadata: { name: string } }) => i.metadata.name));
      next = page.json.metadata.continue || undefined;
    }
    assert.deepEqual(names, ['cm-2', 'cm-3', 'cm-4']);
    // A fresh list through B sees the write through A.
    const fresh = await request(b, 'GET', '/api/v1/namespaces/paging/configmaps');
    assert.equal(fresh.json.items.length, 6);
  });

  it('etcd stopped: /readyz fails with [-]etcd failed, writes fail cleanly; after a restart both recover', async () => {
    const ready = await request(a, 'GET', '/readyz?verbose');
    assert.equal(ready.status, 200, ready.text);
    assert.match(ready.text, /\[\+\]etcd ok/);
    const watch = await openWatch(b, '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0');
    await watch.quiet(300);
    const seenBefore = watch.events.length;

    await etcd.stop();
    const started = Date.now();
    const down = await request(a, 'GET', '/readyz');
    assert.equal(down.status, 500, down.text);
    assert.match(down.text, /\[-\]etcd failed: reason withheld/);
    assert.ok(Date.now() - started < 5000, `readyz answered after ${Date.now() - started} ms`);
    const write = await request(a, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('while-down') });
    assert.equal(write.status, 500, write.text);
    assert.equal(write.json.kind, 'Status');
    assert.ok(Date.now() - started < 15_000, 'the write failed within the etcd call deadline');

    await etcd.restart();
    const deadline = Date.now() + 15_000;
    let created = 0;
    for (;;) {
      const r = await request(a, 'POST', '/api/v1/namespaces/default/configmaps', { body: configMap('after-restart') });
      created = r.status;
      if (r.status === 201 || Date.now() > deadline) break;
      await new Promise((res) => setTimeout(res, 250));
    }
    assert.equal(created, 201);
    assert.equal((await request(a, 'GET', '/readyz')).status, 200);
    assert.equal((await request(b, 'GET', '/readyz')).status, 200);
    // B's watch (fed by B's own etcd watch) resumed by itself.
    await watch.waitUntil(
      () => watch.events.slice(seenBefore).some((e) => (e.object as { metadata?: { name?: string } }).metadata?.name === 'after-restart'),
      15_000,
      'the write after the restart on B',
    );
    assert.equal((await request(a, 'GET', '/api/v1/namespaces/default/configmaps/while-down')).status, 404);
    watch.close();
  });
});
