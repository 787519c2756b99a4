/**
 * The serviceaccount and root-ca-cert-publisher controllers and the ServiceAccount admission in
 * the all-in-one: a new namespace gets `default` and `kube-root-ca.crt` within a second (and
 * again after they are deleted or changed), a pod without an account runs as `default` with the
 * projected token volume, a pod naming a missing account is refused as upstream, and
 * `controllerNames` selects controllers as --controllers does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually, request, startTestCluster, type TestCluster } from './helpers/cluster.js';
import { assertOk } from './helpers/invalid.js';

const TOKEN_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});

async function createNamespace(cluster: TestCluster, name: string): Promise<void> {
  assertOk(await request(cluster, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } }), 201);
}

const exists = (cluster: TestCluster, path: string) => async () => (await request(cluster, 'GET', path)).status === 200;

describe('service accounts and the root CA in every namespace (all-in-one)', () => {
  let cluster: TestCluster;
  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory', controllerNames: ['*'] });
  });
  after(() => cluster.close());

  test('a new namespace has the default ServiceAccount and kube-root-ca.crt within a second', async () => {
    await createNamespace(cluster, 'fresh');
    assert.ok(await eventually(exists(cluster, '/api/v1/namespaces/fresh/serviceaccounts/default'), 1000), 'no default ServiceAccount');
    assert.ok(await eventually(exists(cluster, '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt'), 1000), 'no kube-root-ca.crt');
    const cm = assertOk(await request(cluster, 'GET', '/api/v1/namespaces/fresh/configmaps/kube-root-ca.crt'));
    assert.equal(cm.data['ca.crt'], cluster.caPem);
    assert.ok(cm.metadata.annotations['orch.io/description'].startsWith('Contains a CA bundle'));
  });

  test('a deleted default ServiceAccount and a deleted or edited root CA ConfigMap come back', async () => {
    await createNamespace(cluster, 'again');
    const sa = '/api/v1/namespaces/again/serviceaccounts/default';
    const cm = '/api/v1/namespaces/again/configmaps/kube-root-ca.crt';
    assert.ok(await eventually(exists(cluster, sa), 1000));
    const first = assertOk(await request(cluster, 'GET', sa)).metadata.uid;
    assertOk(await request(cluster, 'DELETE', sa));
    const recreated = async () => {
      const r = await request(cluster, 'GET', sa);
      return r.status === 200 && r.json.metadata.uid !== first;
    };
    assert.ok(await eventually(recreated, 2000), 'default ServiceAccount not recreated');
    assert.ok(await eventually(exists(cluster, cm), 1000));
    const current = assertOk(await request(cluster, 'GET', cm));
    assertOk(await request(cluster, 'PUT', cm, { body: { ...current, data: { 'ca.crt': 'tampered' } } }));
    assert.ok(await eventually(async () => (await request(cluster, 'GET', cm)).json.data['ca.crt'] === cluster.caPem, 2000), 'ca.crt not restored');
    assertOk(await request(cluster, 'DELETE', cm));
    assert.ok(await eventually(exists(cluster, cm), 2000), 'kube-root-ca.crt not recreated');
  });

  test('a pod created right after its namespace runs as default with the projected kube-api-access volume', async () => {
    await createNamespace(cluster, 'pods');
    const created = assertOk(await request(cluster, 'POST', '/api/v1/namespaces/pods/pods', { body: pod('p') }), 201);
    assert.equal(created.spec.serviceAccountName, 'default');
    const volume = created.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(volume.projected, {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    assert.deepEqual(created.spec.containers[0].volumeMounts, [{ name: volume.name, readOnly: true, mountPath: TOKEN_PATH }]);
  });

  test('automountServiceAccountToken: false on the pod or on its account mounts nothing', async () => {
    await createNamespace(cluster, 'nomount');
    const p = assertOk(await request(cluster, 'POST', '/api/v1/namespaces/nomount/pods', { body: pod('a', { automountServiceAccountToken: false }) }), 201);
    assert.equal(p.spec.volumes, undefined);
    assert.equal(p.spec.containers[0].volumeMounts, undefined);
    assertOk(
      await request(cluster, 'POST', '/api/v1/namespaces/nomount/serviceaccounts', {
        body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'quiet' }, automountServiceAccountToken: false },
      }),
      201,
    );
    const q = assertOk(await request(cluster, 'POST', '/api/v1/namespaces/nomount/pods', { body: pod('b', { serviceAccountName: 'quiet' }) }), 201);
    assert.equal(q.spec.serviceAccountName, 'quiet');
    assert.equal(q.spec.volumes, undefined);
  });

  test('a pod naming a missing ServiceAccount is refused with upstream’s message', async () => {
    const r = await request(cluster, 'POST', '/api/v1/namespaces/default/pods', { body: pod('orphan', { serviceAccountName: 'nobody' }) });
    assert.equal(r.status, 403);
    assert.equal(r.json.reason, 'Forbidden');
    assert.equal(r.json.message, 'pods "orphan" is forbidden: error looking up service account default/nobody: serviceaccount "nobody" not found');
  });
});

describe('controllerNames selects controllers as --controllers', () => {
  let cluster: TestCluster;
  before(async () => {
    cluster = await startTestCluster({ storageBackend: 'memory', controllerNames: ['*', '-root-ca-cert-publisher'] });
  });
  after(() => cluster.close());

  test('a controller turned off with -name does not run; the others do', async () => {
    await createNamespace(cluster, 'partial');
    assert.ok(await eventually(exists(cluster, '/api/v1/namespaces/partial/serviceaccounts/default'), 1000));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await request(cluster, 'GET', '/api/v1/namespaces/partial/configmaps/kube-root-ca.crt')).status, 404);
  });

  test('an unknown controller name is refused at start', async () => {
    await assert.rejects(startTestCluster({ storageBackend: 'memory', controllerNames: ['nosuch'] }), /"nosuch" is not in the list of known controllers/);
  });
});
