import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ALL_RESOURCES } from '../api/catalogue.js';
import { ORCH_BRAND } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { StatusError } from '../machinery/status.js';
import type { RequestContext } from '../registry/context.js';
import { Registry } from '../registry/registry.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import type { AdmissionAttributes } from './admission.js';
import { nodeRestriction } from './node-restriction.js';

let registry: Registry;
const adminCtx: RequestContext = { user: { name: 'admin', groups: ['system:masters'] }, brand: ORCH_BRAND, now: new Date() };
const n1: RequestContext = { user: { name: 'system:node:n1', groups: ['system:nodes'] }, brand: ORCH_BRAND, now: new Date() };
let n1Uid = '';
const podUids = new Map<string, string>();

before(async () => {
  registry = new Registry(ALL_RESOURCES, ORCH_BRAND, new MemoryStore());
  await registry.startCaches();
  const nodes = registry.byResource('', 'nodes');
  const pods = registry.byResource('', 'pods');
  assert.ok(nodes && pods);
  const node = await nodes.create(adminCtx, '', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }, { dryRun: false });
  n1Uid = String(node.metadata?.uid);
  for (const [name, nodeName] of [
    ['mine', 'n1'],
    ['theirs', 'n2'],
  ]) {
    const pod = await pods.create(
      adminCtx,
      'default',
      { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'x' }] } },
      { dryRun: false },
    );
    podUids.set(name, String(pod.metadata?.uid));
  }
});

after(() => registry.stopCaches());

function attrs(group: string, resource: string, over: Partial<AdmissionAttributes>): AdmissionAttributes {
  const store = registry.byResource(group, resource);
  assert.ok(store, resource);
  return {
    operation: 'CREATE',
    resource: store.info,
    namespace: '',
    name: '',
    subresource: '',
    object: {},
    ctx: n1,
    dryRun: false,
    ...over,
  } as AdmissionAttributes;
}

async function refusal(a: AdmissionAttributes): Promise<string> {
  try {
    await nodeRestriction(registry).validate(a);
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    assert.equal(e.code, 403);
    return e.message;
  }
  assert.fail('admitted');
}

const admits = (a: AdmissionAttributes) => nodeRestriction(registry).validate(a);

const mirrorPod = (spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Obj => ({
  metadata: { name: 'static', annotations: { 'orch.io/config.mirror': 'h' }, ...meta },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }], ...spec },
});

test('users that are not nodes pass; a node user without a name is refused', async () => {
  await admits(attrs('', 'pods', { namespace: 'default', object: { metadata: { name: 'x' }, spec: {} }, ctx: adminCtx }));
  const msg = await refusal(
    attrs('', 'pods', { namespace: 'default', object: { metadata: { name: 'x' } }, ctx: { ...n1, user: { name: 'system:node:', groups: ['system:nodes'] } } }),
  );
  assert.equal(msg, 'pods "x" is forbidden: could not determine node from user "system:node:"');
});

test('mirror pods only, bound to the node, owned by it, referring to nothing', async () => {
  const pod = (object: Obj) => attrs('', 'pods', { namespace: 'default', object });
  await admits(pod(mirrorPod()));
  await admits(pod(mirrorPod({}, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: n1Uid, controller: true }] })));
  assert.equal(
    await refusal(pod(mirrorPod({ nodeName: 'n2' }))),
    'pods "static" is forbidden: node "n1" can only create pods with spec.nodeName set to itself',
  );
  assert.equal(
    await refusal(pod(mirrorPod({}, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'other', controller: true }] }))),
    `pods "static" is forbidden: node n1 UID mismatch: expected other got ${n1Uid}`,
  );
  assert.equal(
    await refusal(pod(mirrorPod({}, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: n1Uid }] }))),
    'pods "static" is forbidden: node "n1" can only create pods with a controller owner reference set to itself',
  );
  assert.equal(
    await refusal(pod(mirrorPod({ serviceAccountName: 'default' }))),
    'pods "static" is forbidden: node "n1" can not create pods that reference a service account',
  );
  assert.equal(
    await refusal(pod(mirrorPod({ volumes: [{ name: 'v', secret: { secretName: 's' } }] }))),
    'pods "static" is forbidden: node "n1" can not create pods that reference secrets',
  );
  assert.equal(
    await refusal(pod(mirrorPod({ containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'cm' } }] }] }))),
    'pods "static" is forbidden: node "n1" can not create pods that reference configmaps',
  );
  assert.equal(
    await refusal(pod(mirrorPod({ volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] }))),
    'pods "static" is forbidden: node "n1" can not create pods that reference persistentvolumeclaims',
  );
});

test('pods: delete and evict only its own, update only status and not labels', async () => {
  const stored = (name: string): Obj => ({ metadata: { name, labels: { a: '1' } }, spec: { nodeName: name === 'mine' ? 'n1' : 'n2' } });
  await admits(attrs('', 'pods', { operation: 'DELETE', namespace: 'default', name: 'mine', object: stored('mine'), oldObject: stored('mine') }));
  assert.equal(
    await refusal(attrs('', 'pods', { operation: 'DELETE', namespace: 'default', name: 'theirs', object: stored('theirs'), oldObject: stored('theirs') })),
    'pods "theirs" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
  );
  assert.equal(
    await refusal(attrs('', 'pods', { operation: 'UPDATE', namespace: 'default', name: 'mine', object: stored('mine'), oldObject: stored('mine') })),
    'pods "mine" is forbidden: unexpected operation "UPDATE", node "n1" can only create and delete mirror pods',
  );
  await admits(
    attrs('', 'pods', { operation: 'UPDATE', subresource: 'status', namespace: 'default', name: 'mine', object: stored('mine'), oldObject: stored('mine') }),
  );
  const relabelled = { ...stored('mine'), metadata: { name: 'mine', labels: { a: '2' } } };
  assert.equal(
    await refusal(
      attrs('', 'pods', { operation: 'UPDATE', subresource: 'status', namespace: 'default', name: 'mine', object: relabelled, oldObject: stored('mine') }),
    ),
    'pods "mine" is forbidden: node "n1" cannot update labels through pod status',
  );
  await admits(attrs('', 'pods', { subresource: 'eviction', namespace: 'default', name: 'mine', object: { metadata: { name: 'mine' } } }));
  assert.equal(
    await refusal(attrs('', 'pods', { subresource: 'eviction', namespace: 'default', name: 'theirs', object: { metadata: { name: 'theirs' } } })),
    'pods "theirs" is forbidden: node n1 can only evict pods with spec.nodeName set to itself',
  );
  assert.equal(
    await refusal(attrs('', 'pods', { subresource: 'exec', namespace: 'default', name: 'mine', object: {} })),
    `pods "mine" is forbidden: unexpected pod subresource "exec", only 'status' and 'eviction' are allowed`,
  );
});

test('nodes: only its own; no taint changes; only kubelet labels', async () => {
  const node = (labels: Record<string, string>, taints?: unknown[]): Obj => ({ metadata: { name: 'n1', labels }, spec: taints ? { taints } : {} });
  await admits(attrs('', 'nodes', { object: node({ 'orch.io/hostname': 'n1', 'node.orch.io/pool': 'x', 'example.com/rack': '1' }) }));
  assert.equal(
    await refusal(attrs('', 'nodes', { object: node({ 'orch.io/role': 'x', 'node-restriction.orch.io/a': 'b' }) })),
    'nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.orch.io/a, orch.io/role',
  );
  assert.equal(
    await refusal(attrs('', 'nodes', { operation: 'UPDATE', name: 'n2', object: { metadata: { name: 'n2' } }, oldObject: { metadata: { name: 'n2' } } })),
    'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
  );
  assert.equal(
    await refusal(attrs('', 'nodes', { operation: 'UPDATE', name: 'n1', object: node({}, [{ key: 'k', effect: 'NoSchedule' }]), oldObject: node({}) })),
    'nodes "n1" is forbidden: node "n1" is not allowed to modify taints',
  );
  await admits(attrs('', 'nodes', { operation: 'UPDATE', name: 'n1', subresource: 'status', object: node({ a: 'b' }, []), oldObject: node({ a: 'b' }) }));
});

test('service-account tokens only bound to its own pods', async () => {
  const token = (ref: Record<string, unknown> | undefined) =>
    attrs('', 'serviceaccounts', { subresource: 'token', namespace: 'default', name: 'default', object: { metadata: {}, spec: { boundObjectRef: ref } } });
  await admits(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: podUids.get('mine') }));
  assert.equal(await refusal(token(undefined)), 'serviceaccounts "default" is forbidden: node requested token not bound to a pod');
  assert.equal(
    await refusal(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine' })),
    'serviceaccounts "default" is forbidden: node requested token with a pod binding without a uid',
  );
  assert.equal(
    await refusal(token({ apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: podUids.get('theirs') })),
    'serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node',
  );
  assert.match(
    await refusal(token({ apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'old' })),
    /the UID in the bound object reference \(old\) does not match the UID in record/,
  );
});

test('claims: status only, and only capacity and conditions', async () => {
  const claim = (status: Record<string, unknown>, labels: Record<string, string> = {}): Obj => ({
    metadata: { name: 'c', labels },
    spec: { resources: {} },
    status,
  });
  const old = claim({ phase: 'Bound' });
  await admits(
    attrs('', 'persistentvolumeclaims', {
      operation: 'UPDATE',
      subresource: 'status',
      namespace: 'default',
      name: 'c',
      object: claim({ phase: 'Bound', capacity: { storage: '2Gi' } }),
      oldObject: old,
    }),
  );
  assert.equal(
    await refusal(
      attrs('', 'persistentvolumeclaims', {
        operation: 'UPDATE',
        subresource: 'status',
        namespace: 'default',
        name: 'c',
        object: claim({ phase: 'Lost' }),
        oldObject: old,
      }),
    ),
    'persistentvolumeclaims "c" is forbidden: node "n1" is not allowed to update fields other than status.capacity and status.conditions: status.phase',
  );
  assert.equal(
    await refusal(attrs('', 'persistentvolumeclaims', { operation: 'UPDATE', namespace: 'default', name: 'c', object: old, oldObject: old })),
    'persistentvolumeclaims "c" is forbidden: may only update PVC status',
  );
});

test('leases and CSINodes: its own only', async () => {
  const lease = (namespace: string, name: string) => attrs('coordination.orch.io', 'leases', { namespace, object: { metadata: { name } } });
  await admits(lease('orch-node-lease', 'n1'));
  assert.equal(
    await refusal(lease('orch-node-lease', 'n2')),
    'leases.coordination.orch.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
  );
  assert.equal(
    await refusal(lease('default', 'n1')),
    'leases.coordination.orch.io "n1" is forbidden: can only access leases in the "orch-node-lease" system namespace',
  );
  await admits(attrs('storage.orch.io', 'csinodes', { operation: 'UPDATE', name: 'n1', object: { metadata: { name: 'n1' } } }));
  assert.equal(
    await refusal(attrs('storage.orch.io', 'csinodes', { object: { metadata: { name: 'n2' } } })),
    'csinodes.storage.orch.io "n2" is forbidden: can only access CSINode with the same name as the requesting node',
  );
});
