/**
 * client/'s list-and-watch with client-go's metadata-informer Accept headers (what the garbage
 * collector's monitors use): the list and the watch's events carry each object's metadata, not
 * its data, so following every ConfigMap does not move every ConfigMap's megabytes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { listAndWatch, metadataOnly } from '../src/client/list-watch.js';
import { RestClient } from '../src/client/rest-client.js';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

interface Item {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; uid?: string };
  data?: unknown;
}

describe('metadata-only list and watch', () => {
  let cluster: TestCluster;
  let client: RestClient;

  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory' });
    client = new RestClient({ server: cluster.url, caPem: cluster.caPem, certPem: cluster.adminCertPem, keyPem: cluster.adminKeyPem });
  });

  after(async () => {
    client?.close();
    await cluster?.close();
  });

  const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { big: 'x'.repeat(256 * 1024) } });

  it('lists and watches metadata only', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    assert.equal((await request(cluster, 'POST', path, { body: configMap('before') })).status, 201);
    const listed: Item[] = [];
    const events: [string, Item][] = [];
    const lw = listAndWatch<Item>(
      client,
      path,
      { onList: (items) => listed.push(...items), onEvent: (type, obj) => events.push([type, obj]) },
      undefined,
      metadataOnly('meta.orch.io'),
    );
    try {
      const deadline = Date.now() + 10_000;
      while (listed.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const before = listed.find((i) => i.metadata?.name === 'before');
      assert.ok(before?.metadata?.uid, 'the listed item has its metadata');
      assert.equal(before?.data, undefined, 'and none of its data');
      // The watch starts after the list: write until its event arrives.
      for (let i = 0; events.length === 0 && Date.now() < deadline; i++) {
        assert.equal((await request(cluster, 'POST', path, { body: configMap(`after-${i}`) })).status, 201);
        await new Promise((r) => setTimeout(r, 100));
      }
      const [type, obj] = events[0] ?? [];
      assert.equal(type, 'ADDED');
      assert.equal(obj?.kind, 'PartialObjectMetadata');
      assert.equal(obj?.apiVersion, 'meta.orch.io/v1');
      assert.match(obj?.metadata?.name ?? '', /^after-/);
      assert.equal(obj?.data, undefined);
    } finally {
      lw.stop();
    }
  });
});
