/** The deprecated `/watch/` path prefix, which upstream still serves: collections and one object. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { openWatch } from './helpers/watch-client.js';

let cluster: TestCluster;

before(async () => {
  cluster = await startTestCluster();
  for (const name of ['a', 'b']) {
    assert.equal((await request(cluster, 'POST', '/api/v1/namespaces/default/configmaps', { body: { metadata: { name } } })).status, 201);
  }
});
after(() => cluster?.close());

describe('/watch/ paths', () => {
  it('/api/v1/watch/namespaces/<ns>/configmaps streams the collection', async () => {
    const watch = await openWatch(cluster, '/api/v1/watch/namespaces/default/configmaps?timeoutSeconds=1');
    await watch.ended;
    assert.equal(watch.status, 200);
    assert.deepEqual(
      watch.events.map((e) => e.object.metadata.name),
      ['a', 'b'],
    );
  });

  it('/api/v1/watch/namespaces/<ns>/configmaps/<name> streams only that object', async () => {
    const watch = await openWatch(cluster, '/api/v1/watch/namespaces/default/configmaps/b?timeoutSeconds=1');
    await watch.ended;
    assert.deepEqual(
      watch.events.map((e) => `${e.type} ${e.object.metadata.name}`),
      ['ADDED b'],
    );
  });

  it('/apis/<group>/<version>/watch/<resource> across namespaces', async () => {
    const watch = await openWatch(cluster, '/api/v1/watch/configmaps?timeoutSeconds=1');
    await watch.ended;
    assert.ok(watch.events.some((e) => e.object.metadata.name === 'a'));
  });
});
