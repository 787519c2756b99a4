/**
 * The watch cache's history is bounded by bytes, not only by time: large writes push old
 * events out within seconds, a watch resuming from before them gets ERROR 410 Expired, and a
 * client that then lists again and watches from the list's resourceVersion misses nothing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';
import { keepAliveClient, openWatch, type Client, type WatchStream } from './helpers/watch-client.js';

const NS = 'history';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
/** 80 writes of 1 MiB objects: 80 MiB of events, more than the 64 MiB a resource keeps. */
const WRITES = 80;
const MIB = 1024 * 1024;

let cluster: TestCluster;
let api: Client;
const streams: WatchStream[] = [];

before(async () => {
  cluster = await startTestCluster();
  api = keepAliveClient(cluster, 4);
  await api.ok('POST', '/api/v1/namespaces', { metadata: { name: NS } });
});

after(async () => {
  for (const w of streams) w.close();
  api?.close();
  await cluster?.close();
});

describe('watch history bounded by bytes', () => {
  it('large writes push old events out: a resume from before them gets 410 Expired, a re-list and watch from its resourceVersion works', async () => {
    const first = await api.ok('POST', CM, { metadata: { name: 'big' }, data: { v: 'a' } });
    const firstRv = Number(first.metadata.resourceVersion);
    const payload = 'b'.repeat(MIB - 64);
    let rv = firstRv;
    for (let i = 0; i < WRITES; i++) {
      const o = await api.ok('PUT', `${CM}/big`, { metadata: { name: 'big' }, data: { v: `${payload}${i}` } });
      rv = Number(o.metadata.resourceVersion);
    }
    // Within seconds, far inside the 5-minute time bound, the oldest events are gone.
    const w = await openWatch(cluster, `${CM}?watch=true&resourceVersion=${firstRv}`);
    streams.push(w);
    assert.equal(w.status, 200, w.text);
    await w.ended;
    assert.equal(w.events.length, 1, w.describe());
    const [e] = w.events;
    assert.equal(e.type, 'ERROR');
    assert.equal(e.object.code, 410);
    assert.equal(e.object.reason, 'Expired');
    const m = /^too old resource version: (\d+) \((\d+)\)$/.exec(e.object.message);
    assert.ok(m, e.object.message);
    assert.equal(Number(m[1]), firstRv);
    const oldest = Number(m[2]);
    assert.ok(oldest > firstRv && oldest < rv, `oldest kept ${oldest} is between ${firstRv} and ${rv}`);

    // A recent resume is still served from the history, in order.
    const recent = await openWatch(cluster, `${CM}?watch=true&resourceVersion=${rv - 2}`);
    streams.push(recent);
    assert.equal(recent.status, 200, recent.text);
    const got = await recent.take(2, 10_000);
    assert.deepEqual(
      got.map((x) => `${x.type} ${x.object.metadata.resourceVersion}`),
      [`MODIFIED ${rv - 1}`, `MODIFIED ${rv}`],
    );
    recent.close();

    // What the client does next: list, then watch from the list's resourceVersion.
    const list = await api.ok('GET', CM);
    assert.equal(list.items.length, 1);
    assert.equal(list.items[0].data.v, `${payload}${WRITES - 1}`);
    const again = await openWatch(cluster, `${CM}?watch=true&resourceVersion=${list.metadata.resourceVersion}`);
    streams.push(again);
    assert.equal(again.status, 200, again.text);
    await api.ok('PUT', `${CM}/big`, { metadata: { name: 'big' }, data: { v: 'small' } });
    const [next] = await again.take(1, 10_000);
    assert.equal(next.type, 'MODIFIED');
    assert.equal(next.object.data.v, 'small');
  });
});
