import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeSchedulerConfiguration } from './config/types.js';
import type { Node, Pod, ResourceList } from './framework/types.js';
import { IN_TREE_REGISTRY } from './plugins/registry.js';
import { createSimulation } from './simulator/simulation.js';

// Only the plugins that exist so far; the default profile needs all of issue 6's plugins.
const CONFIG: KubeSchedulerConfiguration = {
  profiles: [
    {
      schedulerName: 'default-scheduler',
      plugins: {
        preFilter: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeResourcesFit' }] },
        filter: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeUnschedulable' }, { name: 'NodeName' }, { name: 'NodeResourcesFit' }] },
        postFilter: { disabled: [{ name: '*' }] },
        preScore: { disabled: [{ name: '*' }] },
        score: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeResourcesLeastAllocated', weight: 1 }] },
        reserve: { disabled: [{ name: '*' }] },
        preBind: { disabled: [{ name: '*' }] },
      },
    },
    {
      schedulerName: 'bin-packer',
      plugins: {
        preFilter: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeResourcesFit' }] },
        filter: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeResourcesFit' }] },
        postFilter: { disabled: [{ name: '*' }] },
        preScore: { disabled: [{ name: '*' }] },
        score: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeResourcesMostAllocated', weight: 1 }] },
        reserve: { disabled: [{ name: '*' }] },
        preBind: { disabled: [{ name: '*' }] },
      },
    },
  ],
};

const node = (name: string, cpu: string, memory: string, extra: Partial<Node> = {}): Node => ({
  metadata: { name },
  status: { allocatable: { cpu, memory, pods: '110' } },
  ...extra,
});
const pod = (name: string, requests: ResourceList, spec: Partial<Pod['spec']> = {}): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', resources: { requests } }], ...spec },
});

test('20 pods on 5 nodes of different sizes are all placed within capacity', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG, seed: 7 });
  const sizes: [string, string, string][] = [
    ['small', '2', '4Gi'],
    ['medium', '4', '8Gi'],
    ['large', '8', '16Gi'],
    ['xlarge', '16', '32Gi'],
    ['cordoned', '64', '128Gi'],
  ];
  for (const [n, cpu, mem] of sizes) sim.cluster.addNode(node(n, cpu, mem, n === 'cordoned' ? { spec: { unschedulable: true } } : {}));
  for (let i = 0; i < 20; i++) sim.cluster.addPod(pod(`p${i}`, { cpu: '1', memory: '1Gi' }));
  await sim.scheduler.runUntilIdle();

  const pods = sim.cluster.pods.list();
  assert.equal(pods.filter((p) => p.spec.nodeName).length, 20, 'all bound');
  const perNode = new Map<string, number>();
  for (const p of pods) perNode.set(p.spec.nodeName!, (perNode.get(p.spec.nodeName!) ?? 0) + 1);
  assert.equal(perNode.get('cordoned'), undefined, 'nothing lands on the cordoned node');
  // 30 cores are free and spread by LeastAllocated: every node gets pods, the largest the most.
  assert.ok((perNode.get('small') ?? 0) <= 2 && (perNode.get('medium') ?? 0) <= 4 && (perNode.get('large') ?? 0) <= 8);
  assert.ok((perNode.get('xlarge') ?? 0) > (perNode.get('small') ?? 0));
  assert.equal(sim.cluster.events.filter((e) => e.reason === 'Scheduled').length, 20);
  assert.equal(sim.cluster.bindings.length, 20);
});

test('an unschedulable pod gets the upstream FailedScheduling message and condition', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG });
  sim.cluster.addNode(node('n1', '1', '1Gi'));
  sim.cluster.addNode(node('n2', '1', '1Gi'));
  sim.cluster.addNode(node('n3', '2', '1Gi'));
  sim.cluster.addNode(node('n4', '8', '16Gi', { spec: { unschedulable: true } }));
  sim.cluster.addNode(node('n5', '8', '16Gi', { spec: { unschedulable: true } }));
  sim.cluster.addPod(pod('big', { cpu: '4', memory: '2Gi' }));
  await sim.scheduler.runUntilIdle();
  const failed = sim.cluster.events.filter((e) => e.reason === 'FailedScheduling');
  const msg = '0/5 nodes are available: 2 node(s) were unschedulable, 3 Insufficient cpu, 3 Insufficient memory.';
  assert.deepEqual(failed, [{ regarding: 'default/big', type: 'Warning', reason: 'FailedScheduling', action: 'Scheduling', message: msg }]);
  await Promise.resolve();
  const cond = sim.cluster.pods.get('big', 'default')?.status?.conditions?.find((c) => c.type === 'PodScheduled');
  assert.deepEqual(cond, { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: msg });
  assert.deepEqual(sim.scheduler.queue.lengths(), { active: 0, backoff: 0, unschedulable: 1 });

  // A bigger node arrives: the pod moves (after its 1 s backoff) and is bound.
  sim.cluster.addNode(node('n6', '8', '16Gi'));
  sim.clock.advance(1000);
  await sim.scheduler.runUntilIdle();
  assert.equal(sim.cluster.pods.get('big', 'default')?.spec.nodeName, 'n6');
});

test('profiles are chosen by schedulerName; pods for unknown schedulers are left alone', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG });
  sim.cluster.addNode(node('a', '4', '8Gi'));
  sim.cluster.addNode(node('b', '4', '8Gi'));
  sim.cluster.addPod(pod('seed', { cpu: '1', memory: '1Gi' }, { nodeName: 'a' }));
  sim.cluster.addPod(pod('packed', { cpu: '1', memory: '1Gi' }, { schedulerName: 'bin-packer' }));
  sim.cluster.addPod(pod('spread', { cpu: '1', memory: '1Gi' }));
  sim.cluster.addPod(pod('other', { cpu: '1', memory: '1Gi' }, { schedulerName: 'someone-else' }));
  await sim.scheduler.runUntilIdle();
  assert.equal(sim.cluster.pods.get('packed', 'default')?.spec.nodeName, 'a', 'MostAllocated packs next to seed');
  assert.equal(sim.cluster.pods.get('spread', 'default')?.spec.nodeName, 'b', 'LeastAllocated spreads');
  assert.equal(sim.cluster.pods.get('other', 'default')?.spec.nodeName, undefined);
});

test('the default configuration (every default plugin of v1beta1) schedules pods', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, seed: 3 });
  for (let i = 0; i < 4; i++) sim.cluster.addNode(node(`n${i}`, '4', '8Gi', { metadata: { name: `n${i}`, labels: { 'topology.orch.io/zone': `z${i % 2}` } } }));
  for (let i = 0; i < 8; i++) sim.cluster.addPod(pod(`p${i}`, { cpu: '500m', memory: '512Mi' }));
  await sim.scheduler.runUntilIdle();
  const perNode = new Map<string, number>();
  for (const p of sim.cluster.pods.list()) perNode.set(p.spec.nodeName ?? '', (perNode.get(p.spec.nodeName ?? '') ?? 0) + 1);
  assert.equal(perNode.get(''), undefined, 'every pod is bound');
  // LeastAllocated and BalancedAllocation spread equal pods evenly over equal nodes.
  assert.deepEqual([...perNode.values()], [2, 2, 2, 2]);
});
