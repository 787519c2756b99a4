// `kubectl apply --server-side` (kubectl 1.33 and 1.27) against a real orch server: a
// Deployment and a ConfigMap, a second field manager's conflict, --force-conflicts, and
// --dry-run=server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { kubectlWorkspace } from './helpers/kubectl.js';

function manifests(replicas: number, image: string, color: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: ${image}
      - name: sidecar
        image: busybox:1.36
        args: ["sleep", "infinity"]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  color: ${color}
  size: large
`;
}

interface Entry {
  manager: string;
  operation: string;
  fieldsV1: Record<string, any>;
}

for (const version of ['1.33', '1.27']) {
  describe(`kubectl ${version} apply --server-side`, () => {
    const ws = kubectlWorkspace({ storageBackend: 'memory' });
    const kubectl = ws.kubectl(version);
    const getJson = async (...args: string[]) => JSON.parse(await kubectl.ok(['get', ...args, '-o', 'json', '--show-managed-fields']));

    it('creates a Deployment and a ConfigMap owned by the kubectl manager', async () => {
      const out = await kubectl.ok(['apply', '--server-side', '-f', await ws.file('v1.yaml', manifests(2, 'nginx:1.25', 'blue'))]);
      assert.match(out, /deployment.apps\/web serverside-applied/);
      assert.match(out, /configmap\/settings serverside-applied/);
      const deploy = await getJson('deployment', 'web');
      assert.equal(deploy.spec.replicas, 2);
      const entries = deploy.metadata.managedFields as Entry[];
      assert.deepEqual(
        entries.map((e) => `${e.manager}/${e.operation}`),
        ['kubectl/Apply'],
      );
      const pod = entries[0].fieldsV1['f:spec']['f:template']['f:spec'];
      assert.deepEqual(Object.keys(pod['f:containers']), ['k:{"name":"nginx"}', 'k:{"name":"sidecar"}']);
      assert.deepEqual(pod['f:containers']['k:{"name":"sidecar"}'], { '.': {}, 'f:args': {}, 'f:image': {}, 'f:name': {} });
      const cm = await getJson('configmap', 'settings');
      assert.deepEqual(cm.metadata.managedFields[0].fieldsV1, { 'f:data': { 'f:color': {}, 'f:size': {} } });
    });

    it('re-applying changes only what changed, and drops what the manifest dropped', async () => {
      const text = manifests(2, 'nginx:1.26', 'blue').replace('  size: large\n', '');
      await kubectl.ok(['apply', '--server-side', '-f', await ws.file('v2.yaml', text)]);
      const cm = await getJson('configmap', 'settings');
      assert.deepEqual(cm.data, { color: 'blue' });
      const deploy = await getJson('deployment', 'web');
      assert.equal(deploy.spec.template.spec.containers[0].image, 'nginx:1.26');
      assert.equal(deploy.spec.template.spec.containers[1].image, 'busybox:1.36');
    });

    it('--dry-run=server answers without storing', async () => {
      const out = await kubectl.ok(['apply', '--server-side', '--dry-run=server', '-f', await ws.file('dry.yaml', manifests(7, 'nginx:9', 'green'))]);
      assert.match(out, /deployment.apps\/web serverside-applied \(server dry run\)/);
      assert.equal((await getJson('deployment', 'web')).spec.replicas, 2);
      assert.equal((await getJson('configmap', 'settings')).data.color, 'blue');
    });

    it('a second field manager changing the first one’s fields gets the conflict', async () => {
      const r = await kubectl.run(['apply', '--server-side', '--field-manager=other', '-f', await ws.file('other.yaml', manifests(5, 'nginx:1.27', 'red'))]);
      assert.notEqual(r.code, 0);
      assert.match(
        r.stderr,
        /Apply failed with 2 conflicts: conflicts with "kubectl":\n- \.spec\.replicas\n- \.spec\.template\.spec\.containers\[name="nginx"\]\.image/,
      );
      assert.match(r.stderr, /Apply failed with 1 conflict: conflict with "kubectl": \.data\.color/);
      assert.match(r.stderr, /--force-conflicts/);
      assert.equal((await getJson('deployment', 'web')).spec.replicas, 2);
    });

    it('takes over an object client-side apply created, without conflicts', async () => {
      const csa = (replicas: number) =>
        manifests(replicas, 'nginx:1.25', 'blue').replaceAll('name: web', 'name: csa').replaceAll('app: web', 'app: csa').split('---')[0];
      await kubectl.ok(['apply', '-f', await ws.file('csa.yaml', csa(2))]);
      await kubectl.ok(['apply', '--server-side', '-f', await ws.file('ssa.yaml', csa(3))]);
      const deploy = await getJson('deployment', 'csa');
      assert.equal(deploy.spec.replicas, 3);
      const byManager = Object.fromEntries((deploy.metadata.managedFields as Entry[]).map((e) => [e.manager, e]));
      assert.equal(byManager.kubectl.operation, 'Apply');
      assert.deepEqual(byManager.kubectl.fieldsV1['f:spec']['f:replicas'], {});
      assert.match(deploy.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'], /"replicas":3/);
    });

    it('--force-conflicts takes the fields from the first manager', async () => {
      await kubectl.ok([
        'apply',
        '--server-side',
        '--field-manager=other',
        '--force-conflicts',
        '-f',
        await ws.file('other.yaml', manifests(5, 'nginx:1.27', 'red')),
      ]);
      const deploy = await getJson('deployment', 'web');
      assert.equal(deploy.spec.replicas, 5);
      const byManager = Object.fromEntries((deploy.metadata.managedFields as Entry[]).map((e) => [e.manager, e.fieldsV1]));
      assert.equal(byManager.kubectl['f:spec']['f:replicas'], undefined);
      assert.deepEqual(byManager.other['f:spec']['f:replicas'], {});
      assert.equal((await getJson('configmap', 'settings')).data.color, 'red');
    });
  });
}
