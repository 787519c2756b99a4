/**
 * client/'s events/v1 recorder against a real server: an event is created with upstream's
 * fields; its repeat becomes a series PATCHed onto the same Event; later repeats only count
 * until the series is written again; a different reason is a different Event.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventRecorder } from '../src/client/event-recorder.js';
import { RestClient } from '../src/client/rest-client.js';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

let cluster: TestCluster;
let client: RestClient;

before(async () => {
  cluster = await startTestCluster({ storageBackend: 'memory' });
  client = new RestClient({ server: cluster.url, caPem: cluster.caPem, certPem: cluster.adminCertPem, keyPem: cluster.adminKeyPem });
  assert.equal((await request(cluster, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'ev' } } })).status, 201);
});

after(async () => {
  client?.close();
  await cluster?.close();
});

async function events(): Promise<any[]> {
  const r = await request(cluster, 'GET', '/apis/events.orch.io/v1/namespaces/ev/events');
  assert.equal(r.status, 200, r.text);
  return r.json.items;
}

describe('events/v1 recorder', () => {
  it('creates an Event, then turns repeats into a series on the same Event', async () => {
    const recorder = new EventRecorder({
      client,
      eventsGroup: 'events.orch.io',
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-host',
    });
    const pod = { apiVersion: 'v1', kind: 'Pod', namespace: 'ev', name: 'p', uid: 'u1' };
    recorder.eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', '0/1 nodes are available: 1 Insufficient cpu.');
    await recorder.flush();
    let [ev] = await events();
    assert.equal(ev.reason, 'FailedScheduling');
    assert.equal(ev.action, 'Scheduling');
    assert.equal(ev.type, 'Warning');
    assert.equal(ev.note, '0/1 nodes are available: 1 Insufficient cpu.');
    assert.equal(ev.reportingController, 'default-scheduler');
    assert.equal(ev.reportingInstance, 'default-scheduler-host');
    assert.deepEqual(ev.regarding, pod);
    assert.match(ev.metadata.name, /^p\.[0-9a-f]+$/);
    assert.match(ev.eventTime, /\.\d{6}Z$/);
    assert.equal(ev.series, undefined);

    recorder.eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', '0/1 nodes are available: 1 Insufficient cpu.');
    await recorder.flush();
    const all = await events();
    assert.equal(all.length, 1);
    [ev] = all;
    assert.equal(ev.series.count, 2);
    assert.match(ev.series.lastObservedTime, /\.\d{6}Z$/);

    // Further repeats are counted locally until the periodic refresh; nothing is written now.
    recorder.eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'other text, same series');
    await recorder.flush();
    assert.equal((await events())[0].series.count, 2);

    recorder.eventf(pod, undefined, 'Normal', 'Scheduled', 'Binding', 'Successfully assigned ev/p to n1');
    await recorder.flush();
    assert.deepEqual((await events()).map((e) => e.reason).sort(), ['FailedScheduling', 'Scheduled']);
    await recorder.stop();
  });

  it('drops events beyond its queue instead of queueing without bound', async () => {
    const recorder = new EventRecorder({ client, eventsGroup: 'events.orch.io', reportingController: 'c', reportingInstance: 'c-h', maxQueued: 3 });
    for (let i = 0; i < 10; i++) recorder.eventf({ kind: 'Pod', namespace: 'ev', name: `q${i}` }, undefined, 'Normal', 'R', 'A', 'n');
    assert.equal(recorder.dropped, 7);
    await recorder.stop();
  });
});
