// @kubernetes/client-node's server-side apply: a typed patch with the apply content type and a
// fieldManager, and the generic KubernetesObjectApi.patch with PatchStrategy.ServerSideApply.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';

describe('@kubernetes/client-node server-side apply', () => {
  let cluster: TestCluster;
  let core: k8s.CoreV1Api;
  let objects: k8s.KubernetesObjectApi;
  const applyHeader = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);

  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory' });
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(cluster.kubeconfigPath);
    core = kc.makeApiClient(k8s.CoreV1Api);
    objects = k8s.KubernetesObjectApi.makeApiClient(kc);
  });
  after(() => cluster.close());

  it('applies a ConfigMap with patchNamespacedConfigMap and a fieldManager (created, then updated)', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cn-apply', namespace: 'default' }, data: { a: '1' } };
    const created = await core.patchNamespacedConfigMap({ name: 'cn-apply', namespace: 'default', body, fieldManager: 'node-app' }, applyHeader);
    assert.deepEqual(created.data, { a: '1' });
    assert.equal(created.metadata?.managedFields?.[0]?.manager, 'node-app');
    assert.equal(created.metadata?.managedFields?.[0]?.operation, 'Apply');
    assert.deepEqual(created.metadata?.managedFields?.[0]?.fieldsV1, { 'f:data': { 'f:a': {} } });

    const updated = await core.patchNamespacedConfigMap(
      { name: 'cn-apply', namespace: 'default', body: { ...body, data: { b: '2' } }, fieldManager: 'node-app' },
      applyHeader,
    );
    assert.deepEqual(updated.data, { b: '2' });
  });

  it('reports a conflict as a 409 the client can read, and force takes the field', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cn-apply', namespace: 'default' }, data: { b: '3' } };
    await assert.rejects(
      core.patchNamespacedConfigMap({ name: 'cn-apply', namespace: 'default', body, fieldManager: 'someone-else' }, applyHeader),
      (e: { code?: number; body?: string }) => {
        assert.equal(e.code, 409);
        const status = JSON.parse(String(e.body));
        assert.equal(status.message, 'Apply failed with 1 conflict: conflict with "node-app": .data.b');
        assert.equal(status.details.causes[0].reason, 'FieldManagerConflict');
        return true;
      },
    );
    const forced = await core.patchNamespacedConfigMap(
      { name: 'cn-apply', namespace: 'default', body, fieldManager: 'someone-else', force: true },
      applyHeader,
    );
    assert.equal(forced.data?.b, '3');
  });

  it('applies any object through KubernetesObjectApi.patch with PatchStrategy.ServerSideApply', async () => {
    const spec: k8s.V1ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'generic-apply', namespace: 'default' }, data: { x: 'y' } };
    const applied = await objects.patch(spec, undefined, undefined, 'generic-manager', undefined, k8s.PatchStrategy.ServerSideApply);
    assert.equal(applied.metadata?.managedFields?.[0]?.manager, 'generic-manager');
    const read = await core.readNamespacedConfigMap({ name: 'generic-apply', namespace: 'default' });
    assert.deepEqual(read.data, { x: 'y' });
  });
});
