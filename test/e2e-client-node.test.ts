// @kubernetes/client-node against a real orch server: ConfigMap CRUD and optimistic locking.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';

describe('@kubernetes/client-node', () => {
  let cluster: TestCluster;
  let core: k8s.CoreV1Api;

  before(async () => {
    cluster = await startTestCluster();
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    core = kc.makeApiClient(k8s.CoreV1Api);
  });
  after(() => cluster.close());

  it('creates, reads, lists, replaces and deletes a ConfigMap', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cn1', labels: { app: 'x' } }, data: { k: 'v' } } });
    assert.equal(created.metadata?.name, 'cn1');
    assert.ok(created.metadata?.uid);
    assert.ok(created.metadata?.resourceVersion);

    const read = await core.readNamespacedConfigMap({ name: 'cn1', namespace: 'default' });
    assert.deepEqual(read.data, { k: 'v' });

    const list = await core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'app=x' });
    assert.deepEqual(
      list.items.map((i) => i.metadata?.name),
      ['cn1'],
    );

    read.data = { k: 'changed' };
    const replaced = await core.replaceNamespacedConfigMap({ name: 'cn1', namespace: 'default', body: read });
    assert.equal(replaced.data?.k, 'changed');
    assert.notEqual(replaced.metadata?.resourceVersion, read.metadata?.resourceVersion);

    await core.deleteNamespacedConfigMap({ name: 'cn1', namespace: 'default' });
    await assert.rejects(core.readNamespacedConfigMap({ name: 'cn1', namespace: 'default' }), (e: { code?: number }) => e.code === 404);
  });

  it('answers 409 Conflict to a replace with a stale resourceVersion', async () => {
    const first = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'cn2' }, data: { a: '1' } } });
    await core.replaceNamespacedConfigMap({ name: 'cn2', namespace: 'default', body: { ...first, data: { a: '2' } } });
    await assert.rejects(
      core.replaceNamespacedConfigMap({ name: 'cn2', namespace: 'default', body: { ...first, data: { a: '3' } } }),
      (e: { code?: number; body?: string }) => {
        assert.equal(e.code, 409);
        const status = JSON.parse(String(e.body));
        assert.equal(status.reason, 'Conflict');
        assert.match(status.message, /the object has been modified; please apply your changes to the latest version and try again/);
        return true;
      },
    );
  });

  it('lists namespaces including the system ones', async () => {
    const ns = await core.listNamespace();
    const names = ns.items.map((n) => n.metadata?.name);
    for (const want of ['default', 'orch-system', 'orch-public', 'orch-node-lease']) assert.ok(names.includes(want), want);
  });
});
