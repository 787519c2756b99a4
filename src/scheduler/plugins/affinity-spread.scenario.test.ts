import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeSchedulerConfiguration } from '../config/types.js';
import type { Affinity, Node, Pod, TopologySpreadConstraint } from '../framework/types.js';
import { ORCH_NAMES } from '../framework/well-known.js';
import { createSimulation } from '../simulator/simulation.js';
import { IN_TREE_REGISTRY } from './registry.js';

const HOST = ORCH_NAMES.hostnameLabel;
const ZONE = ORCH_NAMES.zoneLabel;

// Built explicitly so the scenario exercises just resources, spreading and inter-pod affinity.
const CONFIG: KubeSchedulerConfiguration = {
  profiles: [
    {
      schedulerName: 'default-scheduler',
      plugins: {
        preFilter: { disabled: [{ name: '*' }], enabled: [{ name: 'NodeResourcesFit' }, { name: 'PodTopologySpread' }, { name: 'InterPodAffinity' }] },
        filter: {
          disabled: [{ name: '*' }],
          enabled: [
            { name: 'NodeUnschedulable' },
            { name: 'NodeName' },
            { name: 'NodeResourcesFit' },
            { name: 'PodTopologySpread' },
            { name: 'InterPodAffinity' },
          ],
        },
        postFilter: { disabled: [{ name: '*' }] },
        preScore: { disabled: [{ name: '*' }], enabled: [{ name: 'InterPodAffinity' }, { name: 'PodTopologySpread' }] },
        score: {
          disabled: [{ name: '*' }],
          enabled: [
            { name: 'NodeResourcesLeastAllocated', weight: 1 },
            { name: 'InterPodAffinity', weight: 1 },
            { name: 'PodTopologySpread', weight: 2 },
          ],
        },
        reserve: { disabled: [{ name: '*' }] },
        preBind: { disabled: [{ name: '*' }] },
      },
    },
  ],
};

const node = (name: string, zone: string, cpu = '8'): Node => ({
  metadata: { name, labels: { [HOST]: name, [ZONE]: zone } },
  status: { allocatable: { cpu, memory: '16Gi', pods: '110' } },
});

const pod = (
  name: string,
  labels: Record<string, string>,
  extra: { affinity?: Affinity; constraints?: TopologySpreadConstraint[]; nodeName?: string } = {},
): Pod => ({
  metadata: { name, namespace: 'default', labels },
  spec: {
    containers: [{ name: 'c', resources: { requests: { cpu: '100m', memory: '128Mi' } } }],
    affinity: extra.affinity,
    topologySpreadConstraints: extra.constraints,
    nodeName: extra.nodeName,
  },
});

function placement(pods: readonly Pod[], prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of pods) if (p.metadata.name?.startsWith(prefix) && p.spec.nodeName) out.set(p.metadata.name, p.spec.nodeName);
  return out;
}

test('hard zone spreading places 9 pods 3/3/3 across zones despite a crowded zone start', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG, seed: 3 });
  for (const [n, z] of [
    ['a1', 'za'],
    ['a2', 'za'],
    ['b1', 'zb'],
    ['b2', 'zb'],
    ['c1', 'zc'],
    ['c2', 'zc'],
  ]) {
    sim.cluster.addNode(node(n, z));
  }
  const spread: TopologySpreadConstraint[] = [
    { maxSkew: 1, topologyKey: ZONE, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } },
  ];
  for (let i = 0; i < 9; i++) sim.cluster.addPod(pod(`web-${i}`, { app: 'web' }, { constraints: spread }));
  await sim.scheduler.runUntilIdle();
  const placed = placement(sim.cluster.pods.list(), 'web-');
  assert.equal(placed.size, 9);
  const perZone = new Map<string, number>();
  for (const n of placed.values()) perZone.set(n[0], (perZone.get(n[0]) ?? 0) + 1);
  assert.deepEqual([...perZone.values()], [3, 3, 3]);
});

test('soft hostname spreading prefers empty nodes', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG, seed: 5 });
  for (const n of ['n1', 'n2', 'n3', 'n4']) sim.cluster.addNode(node(n, 'z'));
  const soft: TopologySpreadConstraint[] = [
    { maxSkew: 1, topologyKey: HOST, whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'api' } } },
  ];
  for (let i = 0; i < 8; i++) sim.cluster.addPod(pod(`api-${i}`, { app: 'api' }, { constraints: soft }));
  await sim.scheduler.runUntilIdle();
  const counts = new Map<string, number>();
  for (const n of placement(sim.cluster.pods.list(), 'api-').values()) counts.set(n, (counts.get(n) ?? 0) + 1);
  assert.deepEqual([...counts.values()].sort(), [2, 2, 2, 2]);
});

test('required anti-affinity puts one pod per node and reports the rest as upstream', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG, seed: 11 });
  for (const n of ['n1', 'n2', 'n3', 'n4']) sim.cluster.addNode(node(n, n === 'n1' || n === 'n2' ? 'z1' : 'z2'));
  const anti: Affinity = {
    podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: HOST }] },
  };
  for (let i = 0; i < 5; i++) sim.cluster.addPod(pod(`cache-${i}`, { app: 'cache' }, { affinity: anti }));
  await sim.scheduler.runUntilIdle();
  const placed = placement(sim.cluster.pods.list(), 'cache-');
  assert.equal(placed.size, 4);
  assert.equal(new Set(placed.values()).size, 4, 'one per node');
  const failed = sim.cluster.events.filter((e) => e.reason === 'FailedScheduling');
  assert.equal(failed.length, 1);
  assert.equal(
    failed[0].message,
    "0/4 nodes are available: 4 node(s) didn't match pod affinity/anti-affinity rules, 4 node(s) didn't match pod anti-affinity rules.",
  );
});

test('required affinity co-locates pods with their database, and the first of a self-affine group schedules', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, config: CONFIG, seed: 2 });
  for (const n of ['n1', 'n2', 'n3']) sim.cluster.addNode(node(n, n === 'n3' ? 'z2' : 'z1'));
  sim.cluster.addPod(pod('db', { app: 'db' }, { nodeName: 'n2' }));
  const withDb: Affinity = {
    podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: HOST }] },
  };
  for (let i = 0; i < 3; i++) sim.cluster.addPod(pod(`web-${i}`, { app: 'web' }, { affinity: withDb }));
  // Zone affinity to their own kind: the first lands anywhere, the others follow its zone.
  const together: Affinity = {
    podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'batch' } }, topologyKey: ZONE }] },
  };
  for (let i = 0; i < 4; i++) sim.cluster.addPod(pod(`batch-${i}`, { app: 'batch' }, { affinity: together }));
  // Nothing matches this one's affinity and it does not match itself: it stays pending.
  sim.cluster.addPod(pod('orphan', { app: 'orphan' }, { affinity: withDbLike('nothing') }));
  await sim.scheduler.runUntilIdle();
  const pods = sim.cluster.pods.list();
  assert.deepEqual([...placement(pods, 'web-').values()], ['n2', 'n2', 'n2']);
  const batchZones = new Set([...placement(pods, 'batch-').values()].map((n) => (n === 'n3' ? 'z2' : 'z1')));
  assert.equal(placement(pods, 'batch-').size, 4);
  assert.equal(batchZones.size, 1, 'all batch pods in one zone');
  assert.equal(sim.cluster.pods.get('orphan', 'default')?.spec.nodeName, undefined);
  const msg = sim.cluster.events.find((e) => e.regarding === 'default/orphan' && e.reason === 'FailedScheduling')?.message;
  assert.equal(msg, "0/3 nodes are available: 3 node(s) didn't match pod affinity rules, 3 node(s) didn't match pod affinity/anti-affinity rules.");
});

function withDbLike(app: string): Affinity {
  return { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app } }, topologyKey: HOST }] } };
}
