import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultPlugins } from '../config/defaults.js';
import type { KubeSchedulerConfiguration, PluginSet } from '../config/types.js';
import { EXTENSION_POINTS } from '../framework/interfaces.js';
import type { Node, Pod, Taint } from '../framework/types.js';
import { createSimulation } from '../simulator/simulation.js';
import { preferAvoidPodsAnnotationKey } from './node-prefer-avoid-pods/node-prefer-avoid-pods.js';
import { IN_TREE_REGISTRY } from './registry.js';

// The default profile (its order and weights) restricted to the node-level plugins and those they
// need, so the scenario does not depend on plugins of the default set still being written.
const USED = new Set([
  'PrioritySort',
  'NodeUnschedulable',
  'NodeName',
  'TaintToleration',
  'NodeAffinity',
  'NodePorts',
  'NodeResourcesFit',
  'NodeResourcesBalancedAllocation',
  'ImageLocality',
  'NodeResourcesLeastAllocated',
  'NodePreferAvoidPods',
  'DefaultBinder',
]);
const defaults = defaultPlugins();
const plugins: Record<string, PluginSet> = {};
for (const ep of EXTENSION_POINTS) plugins[ep] = { disabled: [{ name: '*' }], enabled: defaults[ep].filter((e) => USED.has(e.name)) };
const CONFIG: KubeSchedulerConfiguration = { profiles: [{ schedulerName: 'default-scheduler', plugins }] };

interface NodeExtra {
  labels?: Record<string, string>;
  taints?: Taint[];
  annotations?: Record<string, string>;
  images?: { names: string[]; sizeBytes: number }[];
}
const node = (name: string, extra: NodeExtra = {}): Node => ({
  metadata: { name, labels: { 'orch.io/hostname': name, ...extra.labels }, annotations: extra.annotations },
  spec: { taints: extra.taints },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' }, images: extra.images },
});
const pod = (name: string, spec: Partial<Pod['spec']> = {}, meta: Partial<Pod['metadata']> = {}): Pod => ({
  metadata: { name, namespace: 'default', ...meta },
  spec: { containers: [{ name: 'c', image: 'app:v1', resources: { requests: { cpu: '100m', memory: '128Mi' } } }], ...spec },
});
const hostPortPod = (name: string, port: number): Pod =>
  pod(name, { containers: [{ name: 'c', ports: [{ containerPort: port, hostPort: port }], resources: { requests: { cpu: '100m', memory: '128Mi' } } }] });

function setup() {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG, seed: 3 });
  const nodeOf = (name: string) => sim.cluster.pods.get(name, 'default')?.spec.nodeName;
  const failures = () => sim.cluster.events.filter((e) => e.reason === 'FailedScheduling').map((e) => `${e.regarding}: ${e.message}`);
  return { sim, nodeOf, failures };
}

test('taints and tolerations: NoSchedule keeps intolerant pods off, PreferNoSchedule steers them away', async () => {
  const { sim, nodeOf, failures } = setup();
  sim.cluster.addNode(node('gpu', { labels: { role: 'gpu' }, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }));
  sim.cluster.addNode(node('spot', { taints: [{ key: 'spot', value: 'true', effect: 'PreferNoSchedule' }] }));
  sim.cluster.addNode(node('plain'));
  for (let i = 0; i < 6; i++) sim.cluster.addPod(pod(`web${i}`));
  sim.cluster.addPod(
    pod('trainer', { nodeSelector: { role: 'gpu' }, tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }),
  );
  sim.cluster.addPod(pod('sneaky', { nodeSelector: { role: 'gpu' } }));
  await sim.scheduler.runUntilIdle();

  assert.equal(nodeOf('trainer'), 'gpu');
  for (let i = 0; i < 6; i++) assert.equal(nodeOf(`web${i}`), 'plain', `web${i}: PreferNoSchedule outweighs spreading at these sizes`);
  assert.equal(nodeOf('sneaky'), undefined);
  // Filter stops at a node's first failing plugin: TaintToleration runs before NodeAffinity.
  assert.deepEqual(failures(), [
    "default/sneaky: 0/3 nodes are available: 1 node(s) had taint {dedicated: gpu}, that the pod didn't tolerate, 2 node(s) didn't match Pod's node affinity/selector.",
  ]);

  // Tolerating PreferNoSchedule makes both untainted-for-it nodes equal again: spreading resumes.
  sim.cluster.addPod(pod('tolerant', { tolerations: [{ key: 'spot', operator: 'Exists' }] }));
  await sim.scheduler.runUntilIdle();
  assert.equal(nodeOf('tolerant'), 'spot', 'the emptier node wins once the taint is tolerated');
});

test('node affinity: required terms filter, preferred terms rank, nodeSelector ANDs', async () => {
  const { sim, nodeOf, failures } = setup();
  sim.cluster.addNode(node('a-hdd', { labels: { zone: 'a', disk: 'hdd' } }));
  sim.cluster.addNode(node('a-ssd', { labels: { zone: 'a', disk: 'ssd' } }));
  sim.cluster.addNode(node('b-ssd', { labels: { zone: 'b', disk: 'ssd' } }));
  const affinity = {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] },
      preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, preference: { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] } }],
    },
  };
  sim.cluster.addPod(pod('db', { affinity }));
  sim.cluster.addPod(pod('pinned', { nodeSelector: { disk: 'hdd' }, affinity }));
  sim.cluster.addPod(pod('nowhere', { nodeSelector: { zone: 'b' }, affinity }));
  sim.cluster.addPod(pod('nvme', { nodeSelector: { disk: 'nvme' } }));
  sim.cluster.addPod(
    pod('by-name', {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['b-ssd'] }] }],
          },
        },
      },
    }),
  );
  await sim.scheduler.runUntilIdle();
  assert.equal(nodeOf('db'), 'a-ssd');
  assert.equal(nodeOf('pinned'), 'a-hdd');
  assert.equal(nodeOf('by-name'), 'b-ssd');
  assert.equal(nodeOf('nowhere'), undefined, 'nodeSelector zone=b and required zone In [a] never both hold');
  assert.equal(nodeOf('nvme'), undefined);
  assert.deepEqual(failures().sort(), [
    "default/nowhere: 0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
    "default/nvme: 0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
  ]);

  // Relabelling a node (a Node label update, which NodeAffinity registers for) lets the waiting pod in.
  sim.cluster.nodes.update('a-hdd', undefined, (n) => ({ ...n, metadata: { ...n.metadata, labels: { ...n.metadata.labels, disk: 'nvme' } } }));
  sim.clock.advance(1000);
  await sim.scheduler.runUntilIdle();
  assert.equal(nodeOf('nvme'), 'a-hdd');
  assert.equal(nodeOf('nowhere'), undefined);
});

test('host ports: one pod per node and port; a deleted pod frees its port', async () => {
  const { sim, nodeOf, failures } = setup();
  for (const n of ['n1', 'n2', 'n3']) sim.cluster.addNode(node(n));
  for (let i = 0; i < 4; i++) sim.cluster.addPod(hostPortPod(`ingress${i}`, 8080));
  sim.cluster.addPod(hostPortPod('other-port', 9090));
  await sim.scheduler.runUntilIdle();

  const placed = [0, 1, 2, 3].map((i) => nodeOf(`ingress${i}`));
  assert.deepEqual(placed.filter((x) => x !== undefined).sort(), ['n1', 'n2', 'n3']);
  assert.ok(nodeOf('other-port') !== undefined, 'another port still fits');
  const pending = `ingress${placed.indexOf(undefined)}`;
  assert.deepEqual(failures(), [`default/${pending}: 0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports.`]);

  const victim = `ingress${placed.indexOf('n2')}`;
  sim.cluster.pods.delete(victim, 'default');
  sim.clock.advance(1000);
  await sim.scheduler.runUntilIdle();
  assert.equal(nodeOf(pending), 'n2');
});

test('score plugins at their default weights: preferAvoidPods (10000) beats image locality', async () => {
  const { sim, nodeOf } = setup();
  const big = [{ names: ['registry.example/model:v1'], sizeBytes: 900 * 1024 * 1024 }];
  sim.cluster.addNode(node('cached', { images: big }));
  sim.cluster.addNode(node('cold'));
  sim.cluster.addNode(node('cold2'));
  const model = (name: string, meta: Partial<Pod['metadata']> = {}) =>
    pod(name, { containers: [{ name: 'c', image: 'registry.example/model:v1', resources: { requests: { cpu: '100m', memory: '128Mi' } } }] }, meta);
  sim.cluster.addPod(model('first'));
  await sim.scheduler.runUntilIdle();
  assert.equal(nodeOf('first'), 'cached', 'the node with the image wins among equal nodes');

  sim.cluster.nodes.update('cached', undefined, (n) => ({
    ...n,
    metadata: {
      ...n.metadata,
      annotations: {
        [preferAvoidPodsAnnotationKey('orch.io')]: JSON.stringify({
          preferAvoidPods: [{ podSignature: { podController: { kind: 'ReplicaSet', uid: 'rs-1', name: 'rs' } } }],
        }),
      },
    },
  }));
  const owned = { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-1', controller: true }] };
  sim.cluster.addPod(model('replica', owned));
  sim.cluster.addPod(model('loner'));
  await sim.scheduler.runUntilIdle();
  assert.notEqual(nodeOf('replica'), 'cached', 'the annotation steers the ReplicaSet away');
  assert.equal(nodeOf('loner'), 'cached', 'other pods still follow the image');
});
