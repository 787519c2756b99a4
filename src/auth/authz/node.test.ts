import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeRules } from '../../api/rbac/node-rules.js';
import type { Attributes, Authorization } from '../../machinery/authorization.js';
import { ORCH_BRAND } from '../../machinery/brand.js';
import { nodeAuthorizer } from './node.js';
import { NodeGraph } from './node-graph.js';

const NODE1 = { name: 'system:node:node1', groups: ['system:nodes', 'system:authenticated'] };

function setup() {
  const graph = new NodeGraph();
  const authorizer = nodeAuthorizer({
    graph,
    rules: nodeRules(ORCH_BRAND),
    groups: { coordination: 'coordination.orch.io', storage: 'storage.orch.io' },
    nodeLeaseNamespace: 'orch-node-lease',
  });
  const ask = (over: Partial<Attributes>, user = NODE1): Authorization =>
    authorizer.authorize({
      user,
      verb: 'get',
      isResourceRequest: true,
      path: '',
      namespace: 'ns',
      apiGroup: '',
      apiVersion: 'v1',
      resource: 'secrets',
      subresource: '',
      name: '',
      ...over,
    }) as Authorization;
  return { graph, authorizer, ask };
}

const pod = (node: string, over: Partial<{ secrets: string[]; configMaps: string[]; claims: string[]; serviceAccount: string }> = {}) => ({
  node,
  secrets: [],
  configMaps: [],
  claims: [],
  serviceAccount: '',
  ...over,
});

test('only node users: others get no opinion; a node user without a name gets a reason', () => {
  const { ask } = setup();
  assert.deepEqual(ask({ name: 's' }, { name: 'alice', groups: ['system:nodes'] }), { decision: 'no-opinion', reason: '' });
  assert.deepEqual(ask({ name: 's' }, { name: 'system:node:node1', groups: [] }), { decision: 'no-opinion', reason: '' });
  assert.deepEqual(ask({ name: 's' }, { name: 'system:node:', groups: ['system:nodes'] }), {
    decision: 'no-opinion',
    reason: 'unknown node for user "system:node:"',
  });
});

test("a node reads the secrets and config maps of its pods, not another node's, and loses them with the pod", () => {
  const { graph, ask } = setup();
  graph.setPod('ns', 'mine', pod('node1', { secrets: ['s1', 's1'], configMaps: ['c1'] }));
  graph.setPod('ns', 'theirs', pod('node2', { secrets: ['s2'], configMaps: ['c2'] }));
  assert.equal(ask({ name: 's1' }).decision, 'allow');
  assert.equal(ask({ name: 's1', verb: 'watch' }).decision, 'allow');
  assert.equal(ask({ resource: 'configmaps', name: 'c1', verb: 'list' }).decision, 'allow');
  assert.deepEqual(ask({ name: 's2' }), { decision: 'no-opinion', reason: "no relationship found between node 'node1' and this object" });
  assert.equal(ask({ resource: 'configmaps', name: 'c2' }).decision, 'no-opinion');
  // Same name, other namespace: another object.
  assert.equal(ask({ name: 's1', namespace: 'other' }).decision, 'no-opinion');
  assert.deepEqual(ask({ name: 's1', verb: 'update' }), { decision: 'no-opinion', reason: 'can only read resources of this type' });
  assert.deepEqual(ask({ verb: 'list' }), { decision: 'no-opinion', reason: 'No Object name found' });
  assert.deepEqual(ask({ name: 's1', namespace: '' }), { decision: 'no-opinion', reason: 'can only read namespaced object of this type' });
  // Two pods on the node share s1: access lasts until the last one goes.
  graph.setPod('ns', 'mine-too', pod('node1', { secrets: ['s1'] }));
  graph.deletePod('ns', 'mine');
  assert.equal(ask({ name: 's1' }).decision, 'allow');
  graph.deletePod('ns', 'mine-too');
  assert.equal(ask({ name: 's1' }).decision, 'no-opinion');
  assert.equal(ask({ resource: 'configmaps', name: 'c1' }).decision, 'no-opinion');
  assert.deepEqual(graph.size(), { pods: 1, objects: 2, volumes: 0, attachments: 0 });
});

test("claims, their volumes and the volumes' secrets follow the pod; get only", () => {
  const { graph, ask } = setup();
  graph.setPersistentVolume('pv1', { claim: { namespace: 'ns', name: 'data' }, secrets: [{ namespace: 'storage', name: 'ceph' }] });
  assert.equal(ask({ resource: 'persistentvolumes', name: 'pv1', namespace: '' }).decision, 'no-opinion');
  graph.setPod('ns', 'db', pod('node1', { claims: ['data'] }));
  assert.equal(ask({ resource: 'persistentvolumeclaims', name: 'data' }).decision, 'allow');
  assert.equal(ask({ resource: 'persistentvolumes', name: 'pv1', namespace: '' }).decision, 'allow');
  assert.equal(ask({ name: 'ceph', namespace: 'storage' }).decision, 'allow');
  assert.deepEqual(ask({ resource: 'persistentvolumeclaims', name: 'data', verb: 'list' }), {
    decision: 'no-opinion',
    reason: 'can only get individual resources of this type',
  });
  assert.equal(ask({ resource: 'persistentvolumeclaims', subresource: 'status', name: 'data', verb: 'patch' }).decision, 'allow');
  // The volume is released: its secret goes with it.
  graph.setPersistentVolume('pv1', { secrets: [{ namespace: 'storage', name: 'ceph' }] });
  assert.equal(ask({ resource: 'persistentvolumes', name: 'pv1', namespace: '' }).decision, 'no-opinion');
  assert.equal(ask({ name: 'ceph', namespace: 'storage' }).decision, 'no-opinion');
});

test('service-account tokens only for the service accounts of its pods', () => {
  const { graph, ask } = setup();
  graph.setPod('ns', 'p', pod('node1', { serviceAccount: 'default' }));
  const token = { resource: 'serviceaccounts', subresource: 'token', verb: 'create' };
  assert.equal(ask({ ...token, name: 'default' }).decision, 'allow');
  assert.equal(ask({ ...token, name: 'admin' }).decision, 'no-opinion');
  assert.deepEqual(ask({ resource: 'serviceaccounts', name: 'default' }), {
    decision: 'no-opinion',
    reason: 'can only create tokens for individual service accounts',
  });
});

test('its own Lease in the node-lease namespace, its own CSINode', () => {
  const { ask } = setup();
  const lease = { apiGroup: 'coordination.orch.io', resource: 'leases', namespace: 'orch-node-lease' };
  assert.equal(ask({ ...lease, name: 'node1', verb: 'update' }).decision, 'allow');
  assert.equal(ask({ ...lease, verb: 'create' }).decision, 'allow');
  assert.deepEqual(ask({ ...lease, name: 'node2', verb: 'update' }), {
    decision: 'no-opinion',
    reason: 'can only access node lease with the same name as the requesting node',
  });
  assert.deepEqual(ask({ ...lease, namespace: 'default', name: 'node1' }), {
    decision: 'no-opinion',
    reason: 'can only access leases in the "orch-node-lease" system namespace',
  });
  assert.deepEqual(ask({ ...lease, verb: 'list' }), { decision: 'no-opinion', reason: 'can only get, create, update, patch, or delete a node lease' });
  const csi = { apiGroup: 'storage.orch.io', resource: 'csinodes', namespace: '' };
  assert.equal(ask({ ...csi, name: 'node1', verb: 'patch' }).decision, 'allow');
  assert.deepEqual(ask({ ...csi, name: 'node2' }), { decision: 'no-opinion', reason: 'can only access CSINode with the same name as the requesting node' });
});

test('everything else by the system:node rules', () => {
  const { ask } = setup();
  assert.equal(ask({ resource: 'nodes', name: 'node1', verb: 'patch', namespace: '' }).decision, 'allow');
  assert.equal(ask({ resource: 'nodes', subresource: 'status', name: 'node1', verb: 'update', namespace: '' }).decision, 'allow');
  assert.equal(ask({ resource: 'pods', subresource: 'status', name: 'p', verb: 'patch' }).decision, 'allow');
  assert.equal(ask({ resource: 'pods', verb: 'watch' }).decision, 'allow');
  assert.equal(ask({ resource: 'services', verb: 'list' }).decision, 'allow');
  assert.equal(ask({ resource: 'events', verb: 'create' }).decision, 'allow');
  assert.equal(ask({ apiGroup: 'storage.orch.io', resource: 'csidrivers', verb: 'list', namespace: '' }).decision, 'allow');
  assert.deepEqual(ask({ resource: 'pods', verb: 'update', name: 'p' }), { decision: 'no-opinion', reason: '' });
  assert.equal(ask({ resource: 'namespaces', verb: 'delete', name: 'ns', namespace: '' }).decision, 'no-opinion');
  assert.equal(ask({ apiGroup: 'apps', resource: 'deployments', verb: 'list' }).decision, 'no-opinion');
  assert.equal(ask({ isResourceRequest: false, path: '/healthz', resource: '' }).decision, 'no-opinion');
});

test("rulesFor a node is incomplete with upstream's error; for others empty", () => {
  const { authorizer } = setup();
  assert.deepEqual(authorizer.rulesFor(NODE1, 'ns'), {
    resourceRules: [],
    nonResourceRules: [],
    incomplete: true,
    error: 'node authorizer does not support user rule resolution',
  });
  assert.deepEqual(authorizer.rulesFor({ name: 'alice', groups: [] }, 'ns'), { resourceRules: [], nonResourceRules: [], incomplete: false });
});
