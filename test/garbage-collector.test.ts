// The garbage collector of the all-in-one, through kubectl 1.33 and the API: cascading
// deletion in the foreground, background and orphan modes over a Deployment → ReplicaSet →
// Pods chain (the test writes the ownerReferences, as the workload controllers would);
// dangling references, owners in the wrong namespace, custom types added after start, and
// 10,000 dependents of one owner.
import assert from 'node:assert/strict';
import https from 'node:https';
import { describe, it } from 'node:test';
import { request } from './helpers/cluster.js';
import { coreWaitMs, heldMs } from './helpers/core-wait.js';
import { kubectlWorkspace } from './helpers/kubectl.js';

const ws = kubectlWorkspace({ storageBackend: 'memory', kubernetesCompat: true });
const kubectl = ws.kubectl('1.33');
const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  request(ws.cluster, method, path, { body: body as object, headers });
const MERGE = { 'content-type': 'application/merge-patch+json' };
const NS = '/api/v1/namespaces/default';
const APPS = '/apis/apps/v1/namespaces/default';

async function create(path: string, body: unknown): Promise<any> {
  const r = await call('POST', path, body);
  assert.equal(r.status, 201, r.text);
  return r.json;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const gone = (path: string) => async () => (await call('GET', path)).status === 404;

function ownerRef(obj: any, block = true) {
  return { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name, uid: obj.metadata.uid, controller: true, blockOwnerDeletion: block };
}

const labels = (app: string) => ({ app });
const podSpec = { containers: [{ name: 'c', image: 'nginx' }] };

/** A Deployment, its ReplicaSet and `pods` Pods, each owned by the one above; `podFinalizers` hold the first pod. */
async function chain(name: string, pods = 2, podFinalizers: string[] = []) {
  const deploy = await create(`${APPS}/deployments`, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { selector: { matchLabels: labels(name) }, template: { metadata: { labels: labels(name) }, spec: podSpec } },
  });
  const rs = await create(`${APPS}/replicasets`, {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: `${name}-rs`, ownerReferences: [ownerRef(deploy)] },
    spec: { selector: { matchLabels: labels(name) }, template: { metadata: { labels: labels(name) }, spec: podSpec } },
  });
  const podNames: string[] = [];
  for (let i = 0; i < pods; i++) {
    const finalizers = i === 0 ? podFinalizers : [];
    const pod = await create(`${NS}/pods`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${name}-pod-${i}`, labels: labels(name), ownerReferences: [ownerRef(rs)], ...(finalizers.length ? { finalizers } : {}) },
      spec: podSpec,
    });
    podNames.push(pod.metadata.name);
  }
  return { deploy, rs, podNames };
}

describe('garbage collector', () => {
  it('kubectl delete --cascade=foreground keeps the owner with foregroundDeletion until its dependents are gone', async () => {
    const { podNames } = await chain('fg', 2, ['example.com/hold']);
    await kubectl.ok(['delete', 'deploy', 'fg', '--cascade=foreground', '--wait=false']);
    // The held pod keeps the ReplicaSet, which keeps the Deployment.
    await waitFor('the free pod to go', gone(`${NS}/pods/${podNames[1]}`));
    const held = (await call('GET', `${NS}/pods/${podNames[0]}`)).json;
    assert.ok(held.metadata.deletionTimestamp, 'the held pod is being deleted');
    for (const path of [`${APPS}/deployments/fg`, `${APPS}/replicasets/fg-rs`]) {
      const r = await call('GET', path);
      assert.equal(r.status, 200, `${path} stays while a blocking dependent exists`);
      assert.ok(r.json.metadata.deletionTimestamp, `${path} has a deletionTimestamp`);
      assert.deepEqual(r.json.metadata.finalizers, ['foregroundDeletion']);
    }
    const shown = await kubectl.ok(['get', 'deploy', 'fg', '-o', 'jsonpath={.metadata.finalizers}']);
    assert.match(shown, /foregroundDeletion/);
    // Releasing the pod lets the chain finish, bottom up.
    const released = await call('PATCH', `${NS}/pods/${podNames[0]}`, { metadata: { finalizers: null } }, MERGE);
    assert.equal(released.status, 200, released.text);
    await waitFor('the deployment to go', gone(`${APPS}/deployments/fg`));
    assert.equal((await call('GET', `${APPS}/replicasets/fg-rs`)).status, 404);
    assert.equal((await call('GET', `${NS}/pods/${podNames[0]}`)).status, 404);
  });

  it('kubectl delete --cascade=orphan removes the owner and leaves dependents without the reference', async () => {
    const { podNames } = await chain('orph', 2);
    const out = await kubectl.ok(['delete', 'deploy', 'orph', '--cascade=orphan']);
    assert.match(out, /deployment.apps "orph" deleted/);
    assert.equal((await call('GET', `${APPS}/deployments/orph`)).status, 404);
    const rs = (await call('GET', `${APPS}/replicasets/orph-rs`)).json;
    assert.equal(rs.metadata.ownerReferences, undefined, 'the ReplicaSet lost its reference');
    assert.equal(rs.metadata.deletionTimestamp, undefined);
    // The pods keep their own owner, the ReplicaSet, which still exists.
    for (const p of podNames) assert.equal((await call('GET', `${NS}/pods/${p}`)).json.metadata.ownerReferences[0].name, 'orph-rs');
  });

  it('kubectl delete (background) removes the owner at once and its dependents after it', async () => {
    const { podNames } = await chain('bg', 3);
    await kubectl.ok(['delete', 'deploy', 'bg']);
    assert.equal((await call('GET', `${APPS}/deployments/bg`)).status, 404);
    await waitFor('the ReplicaSet to go', gone(`${APPS}/replicasets/bg-rs`));
    for (const p of podNames) await waitFor(`pod ${p} to go`, gone(`${NS}/pods/${p}`));
  });

  it('collects an object whose only owner no longer exists, and drops a dangling reference beside a live owner', async () => {
    const secret = await create(`${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'owner-secret' } });
    const deleted = await create(`${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'deleted-secret' } });
    assert.equal((await call('DELETE', `${NS}/secrets/deleted-secret`)).status, 200);
    const danglingRef = { apiVersion: 'v1', kind: 'Secret', name: 'deleted-secret', uid: deleted.metadata.uid };
    await create(`${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'orphaned-cm', ownerReferences: [danglingRef] } });
    await create(`${NS}/configmaps`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'two-owners', ownerReferences: [danglingRef, { apiVersion: 'v1', kind: 'Secret', name: 'owner-secret', uid: secret.metadata.uid }] },
    });
    await waitFor('the ConfigMap with a dangling owner to go', gone(`${NS}/configmaps/orphaned-cm`));
    await waitFor('the dangling reference to be removed', async () => {
      const cm = (await call('GET', `${NS}/configmaps/two-owners`)).json;
      return cm.metadata.ownerReferences?.length === 1;
    });
    const cm = (await call('GET', `${NS}/configmaps/two-owners`)).json;
    assert.equal(cm.metadata.ownerReferences[0].name, 'owner-secret');
  });

  it('an owner in another namespace is no owner: the dependent is collected and an OwnerRefInvalidNamespace event recorded', async () => {
    assert.equal((await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'elsewhere' } })).status, 201);
    const owner = await create(`${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'real-owner' } });
    // Let the collector observe the owner first, so the mismatch is certain.
    await new Promise((r) => setTimeout(r, 300));
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'real-owner', uid: owner.metadata.uid };
    const dep = await create('/api/v1/namespaces/elsewhere/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cross-ns', ownerReferences: [ref] },
    });
    await waitFor('the cross-namespace dependent to go', gone('/api/v1/namespaces/elsewhere/configmaps/cross-ns'));
    assert.equal((await call('GET', `${NS}/configmaps/real-owner`)).status, 200, 'the owner is untouched');
    let event: any;
    await waitFor('the event', async () => {
      const events = (await call('GET', '/api/v1/namespaces/elsewhere/events')).json.items as any[];
      event = events.find((e) => e.reason === 'OwnerRefInvalidNamespace');
      return event !== undefined;
    });
    assert.equal(event.type, 'Warning');
    assert.equal(event.involvedObject.uid, dep.metadata.uid);
    assert.equal(event.source.component, 'garbage-collector-controller');
    assert.equal(
      event.message,
      `ownerRef [v1/ConfigMap, namespace: elsewhere, name: real-owner, uid: ${owner.metadata.uid}] does not exist in namespace "elsewhere"`,
    );
  });

  it('a cluster-scoped object naming a namespaced owner kind is left alone', async () => {
    const owner = await create(`${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ns-owner' } });
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'ns-owner', uid: owner.metadata.uid };
    await create('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'gc-scope', ownerReferences: [ref] },
    });
    assert.equal((await call('DELETE', `${NS}/configmaps/ns-owner`)).status, 200);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal((await call('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/gc-scope')).status, 200);
  });

  it('covers a custom resource type added after start', async () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.gc.example.com
spec:
  group: gc.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;
    await kubectl.ok(['apply', '-f', await ws.file('widgets.yaml', crd)]);
    await kubectl.ok(['wait', '--for=condition=Established', 'crd/widgets.gc.example.com', '--timeout=10s']);
    const owner = await create(`${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'widget-owner' } });
    const base = '/apis/gc.example.com/v1/namespaces/default/widgets';
    const widgetOwner = await create(base, {
      apiVersion: 'gc.example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'widget-owner', uid: owner.metadata.uid }] },
    });
    // A ConfigMap owned by the custom resource: the custom kind as owner.
    await create(`${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'widget-dep', ownerReferences: [ownerRef(widgetOwner)] } });
    await kubectl.ok(['delete', 'configmap', 'widget-owner']);
    await waitFor('the widget to go', gone(`${base}/w1`));
    await waitFor('the widget dependent to go', gone(`${NS}/configmaps/widget-dep`));
  });

  it('collects 10,000 dependents of one owner (background)', { timeout: 180_000 }, async () => {
    const owner = await create(`${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'big-owner' } });
    const ref = { apiVersion: 'v1', kind: 'Secret', name: 'big-owner', uid: owner.metadata.uid };
    const agent = new https.Agent({ keepAlive: true, maxSockets: 8 });
    const N = 10_000;
    let next = 0;
    const lane = async () => {
      while (next < N) {
        const i = next++;
        const r = await request(ws.cluster, 'POST', `${NS}/configmaps`, {
          agent,
          body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `dep-${i}`, labels: { gc: 'big' }, ownerReferences: [ref] } },
        });
        assert.equal(r.status, 201, r.text);
      }
    };
    await Promise.all(Array.from({ length: 8 }, lane));
    agent.destroy();
    const started = Date.now();
    const waitedBefore = coreWaitMs();
    assert.equal((await call('DELETE', `${NS}/secrets/big-owner`)).status, 200);
    await waitFor(
      'every dependent to go',
      async () => ((await call('GET', `${NS}/configmaps?labelSelector=gc%3Dbig&limit=1`)).json.items as unknown[]).length === 0,
      150_000,
    );
    // The server runs in this process: the time it waited for a core on a busy machine is not the collector's.
    const ms = heldMs(Date.now() - started, waitedBefore, coreWaitMs());
    console.log(`garbage collection of ${N} dependents: ${ms.toFixed(0)} ms (${Date.now() - started} ms of wall-clock time)`);
    assert.ok(ms < 60_000, `took ${ms} ms`);
  });
});
