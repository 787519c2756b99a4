/**
 * Compaction shared by replicas on one etcd (upstream's compact_rev_key Txn): with two
 * replicas compacting every interval, one compaction happens per interval, to the revision
 * seen an interval earlier; a watch cache whose resume point was compacted re-lists.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Cacher } from '../src/storage/cacher/cacher.js';
import { bytes, record } from '../src/storage/contract-helpers.js';
import { startEtcdCompactor } from '../src/storage/etcd/compactor.js';
import { EtcdStore } from '../src/storage/etcd/etcd-store.js';
import { type EtcdProcess, startEtcd } from './helpers/etcd.js';

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('etcd compaction with two replicas', () => {
  let etcd: EtcdProcess;
  before(async () => {
    etcd = await startEtcd();
  });
  after(async () => {
    await etcd?.destroy();
  });

  it('one replica compacts per interval, to the revision seen one interval earlier', async () => {
    const [a, b] = await Promise.all([EtcdStore.connect({ servers: [etcd.endpoint] }), EtcdStore.connect({ servers: [etcd.endpoint] })]);
    const compactions: { by: string; revision: number; at: number }[] = [];
    const intervalMs = 400;
    const stops = [a, b].map((s, i) =>
      startEtcdCompactor(s, { intervalMs, onCompacted: (revision) => compactions.push({ by: i === 0 ? 'a' : 'b', revision, at: Date.now() }) }),
    );
    const started = Date.now();
    let n = 0;
    while (Date.now() - started < 8 * intervalMs) {
      await (n % 2 === 0 ? a : b).create(`/k/${n}`, bytes(`${n}`));
      n++;
      await delay(20);
    }
    await Promise.all(stops.map((stop) => stop()));
    const rounds = Math.floor((Date.now() - started) / intervalMs);
    // No compaction in the first round (nothing seen an interval earlier), then at most one per interval.
    assert.ok(compactions.length >= 3, `compactions: ${JSON.stringify(compactions)}`);
    assert.ok(compactions.length <= rounds, `${compactions.length} compactions in ${rounds} intervals`);
    for (let i = 1; i < compactions.length; i++) assert.ok(compactions[i].revision > compactions[i - 1].revision, 'each round compacts further');
    // History of about one interval is kept: the last compaction is behind the newest writes.
    const last = compactions[compactions.length - 1].revision;
    assert.ok(last < a.currentRevision(), `compacted to ${last}, current ${a.currentRevision()}`);
    // Both replicas know how far history goes.
    assert.ok(a.compactedRevision() >= compactions[compactions.length - 2].revision);
    assert.ok(b.compactedRevision() >= compactions[compactions.length - 2].revision);
    // A watch from before the compaction ends Compacted (the API answers 410 from it).
    const w = record(a, '/k/', 1);
    assert.equal((await w.waitForError()).code, 'Compacted');
    await Promise.all([a.close(), b.close()]);
  });

  it('a watch cache whose watch was compacted under it re-lists and follows on', async () => {
    const store = await EtcdStore.connect({ servers: [etcd.endpoint], prefix: '/cache-test' });
    const cache = new Cacher(store, '/c/', (kv, revision) => ({
      key: kv.key,
      modRevision: revision,
      json: Buffer.from(kv.value),
      labels: undefined,
      fields: {},
    }));
    await cache.start();
    const r1 = await store.create('/c/1', bytes('one'));
    assert.ok(await cache.waitFor(r1, 3000));
    // Another process writes and compacts past what the cache has seen while its watch is down.
    const other = await EtcdStore.connect({ servers: [etcd.endpoint], prefix: '/cache-test' });
    await etcd.stop();
    await etcd.restart();
    await other.create('/c/2', bytes('two'));
    const r2 = await other.create('/c/3', bytes('three'));
    // Past the cache's resume point (r1 + 1): its watch ends Compacted and it lists again.
    await other.compact(r2);
    assert.ok(await cache.waitFor(r2, 10_000), `cache at ${cache.currentRevision()}, want ${r2}`);
    assert.deepEqual(
      cache.list().map((e) => e.key),
      ['/c/1', '/c/2', '/c/3'],
    );
    cache.stop();
    await Promise.all([store.close(), other.close()]);
  });
});
