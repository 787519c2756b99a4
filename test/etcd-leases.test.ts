/**
 * Event time to live on etcd is etcd's lease, as upstream: puts close in time share one lease,
 * the keys go away when it expires (watchers see the deletes), and events expire even when no
 * API server is running any more.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { bytes, record } from '../src/storage/contract-helpers.js';
import { EtcdStore } from '../src/storage/etcd/etcd-store.js';
import { request, startTestCluster } from './helpers/cluster.js';
import { type EtcdProcess, startEtcd } from './helpers/etcd.js';

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('expiry through etcd leases', () => {
  let etcd: EtcdProcess;
  before(async () => {
    etcd = await startEtcd();
  });
  after(async () => {
    await etcd?.destroy();
  });

  it('puts under an expiring prefix share one lease and are deleted when it expires', async () => {
    const store = await EtcdStore.connect({ servers: [etcd.endpoint], prefix: '/lease-test' });
    // etcd as another client sees it.
    const raw = new Etcd3({ hosts: etcd.endpoint });
    try {
      store.expireUnder('/e/', 2000);
      // An hour's TTL, as --event-ttl: a lease is reused for 5% of it (at most 60 s).
      store.expireUnder('/hour/', 3600_000);
      const w = record(store, '/e/', store.currentRevision());
      const r1 = await store.create('/e/1', bytes('one'));
      await store.create('/e/2', bytes('two'));
      await store.update('/e/1', bytes('one again'), r1);
      await store.create('/kept', bytes('no ttl'));
      for (let i = 0; i < 3; i++) await store.create(`/hour/${i}`, bytes('x'));
      const all = await raw.kv.range({ key: Buffer.from('/lease-test/'), range_end: Buffer.from('/lease-test0') });
      const leases = new Map(all.kvs.map((kv) => [kv.key.toString(), kv.lease]));
      assert.notEqual(leases.get('/lease-test/e/1'), '0');
      assert.equal(leases.get('/lease-test/kept'), '0');
      assert.notEqual(leases.get('/lease-test/hour/0'), '0');
      assert.equal(leases.get('/lease-test/hour/1'), leases.get('/lease-test/hour/0'), 'one lease for puts close in time');
      assert.equal(leases.get('/lease-test/hour/2'), leases.get('/lease-test/hour/0'));
      const ttl = await raw.leaseClient.leaseTimeToLive({ ID: leases.get('/lease-test/hour/0') });
      assert.equal(Number(ttl.grantedTTL), 3600 + 60, 'granted the TTL plus the reuse window');
      await w.waitFor(5, 8000);
      // etcd deletes a lease's keys in an order of its own.
      assert.deepEqual(
        w.events
          .slice(3)
          .map((e) => `${e.type} ${e.kv.key}`)
          .sort(),
        ['delete /e/1', 'delete /e/2'],
      );
      assert.equal(await store.get('/e/1'), undefined);
      assert.equal((await store.get('/kept'))?.value.length, 6);
      w.cancel();
    } finally {
      raw.close();
      await store.close();
    }
  });

  it('events written through the API expire by their lease after the server stopped', async () => {
    const cp = await startTestCluster({ storageBackend: 'etcd3', etcd: { servers: [etcd.endpoint] }, eventTtlMs: 2000, controllers: false });
    let name = '';
    try {
      const created = await request(cp, 'POST', '/api/v1/namespaces/default/events', {
        body: {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { generateName: 'ev-' },
          involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
          reason: 'Tested',
          message: 'expires by lease',
          type: 'Normal',
        },
      });
      assert.equal(created.status, 201, created.text);
      name = created.json.metadata.name;
    } finally {
      await cp.close();
    }
    const store = await EtcdStore.connect({ servers: [etcd.endpoint], prefix: '' });
    try {
      // Upstream's key layout: <--etcd-prefix>/events/<namespace>/<name>.
      const key = `/registry/events/default/${name}`;
      assert.ok(await store.get(key), `${key} is stored`);
      const deadline = Date.now() + 8000;
      while ((await store.get(key)) && Date.now() < deadline) await delay(200);
      assert.equal(await store.get(key), undefined, 'expired with no server running');
    } finally {
      await store.close();
    }
  });
});
