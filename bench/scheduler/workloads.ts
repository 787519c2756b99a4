/**
 * Upstream scheduler_perf workloads (test/integration/scheduler_perf/config/performance-config.yaml,
 * the 5000Nodes variants, templates as of 1.21) mirrored for the simulator: node and pod
 * templates, namespaces, zone labels, counts and the published pods/s thresholds.
 */
import type { Node, Pod, PodSpec } from '../../src/scheduler/framework/types.js';
import type { WellKnownNames } from '../../src/scheduler/framework/well-known.js';

export interface Workload {
  name: string;
  /** Upstream's published threshold, pods/s (scheduler_perf with an API server in the loop); null when none is published. */
  threshold: number | null;
  nodes: number;
  initPods: number;
  measurePods: number;
  /** Plugins without which the workload does not exercise what it is named after. */
  needs: string[];
  node(i: number, names: WellKnownNames): Node;
  initPod(i: number, names: WellKnownNames): Pod;
  measurePod(i: number, names: WellKnownNames): Pod;
}

/** Upstream's default node (node-default.yaml / makeBaseNode): 4 CPU, 32Gi, 110 pods, Ready; hostname label as a kubelet sets it. */
function baseNode(i: number, names: WellKnownNames, labels: Record<string, string> = {}): Node {
  const name = `scheduler-perf-${i}`;
  const res = { pods: '110', cpu: '4', memory: '32Gi' };
  return {
    metadata: { name, labels: { [names.hostnameLabel]: name, ...labels } },
    spec: {},
    status: { capacity: res, allocatable: res, conditions: [{ type: 'Ready', status: 'True' }], phase: 'Running' },
  };
}

/** labelNodePrepareStrategy: the zone label, values assigned round-robin. */
const zoned =
  (values: string[]) =>
  (i: number, names: WellKnownNames): Node =>
    baseNode(i, names, { [names.zoneLabel]: values[i % values.length] });

const plainNode = (i: number, names: WellKnownNames): Node => baseNode(i, names);

/** pod-default.yaml: one pause container requesting 100m / 500Mi, port 80. */
function basePod(name: string, namespace: string, spec: Partial<PodSpec> = {}, labels?: Record<string, string>, cpu = '100m'): Pod {
  return {
    metadata: { name, namespace, labels },
    spec: {
      containers: [
        {
          name: 'pause',
          image: 'registry.k8s.io/pause:3.5',
          ports: [{ containerPort: 80 }],
          resources: { limits: { cpu, memory: '500Mi' }, requests: { cpu, memory: '500Mi' } },
        },
      ],
      ...spec,
    },
  };
}

const NAMESPACES = ['sched-test', 'sched-setup'];
const SETUP = 'sched-setup';
const TEST = 'sched-test';

const defaultPod =
  (prefix: string, ns = 'default') =>
  (i: number) =>
    basePod(`${prefix}-${i}`, ns);

const antiAffinityPod = (ns: string) => (i: number, names: WellKnownNames) =>
  basePod(
    `anti-affinity-pod-${i}`,
    ns,
    {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { color: 'green' } }, topologyKey: names.hostnameLabel, namespaces: NAMESPACES },
          ],
        },
      },
    },
    { color: 'green' },
  );

const affinityPod = (ns: string) => (i: number, names: WellKnownNames) =>
  basePod(
    `affinity-pod-${i}`,
    ns,
    {
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { color: 'blue' } }, topologyKey: names.zoneLabel, namespaces: NAMESPACES },
          ],
        },
      },
    },
    { color: 'blue' },
  );

const preferredAffinityPod = (ns: string) => (i: number, names: WellKnownNames) =>
  basePod(
    `preferred-affinity-pod-${i}`,
    ns,
    {
      affinity: {
        podAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 1, podAffinityTerm: { labelSelector: { matchLabels: { color: 'red' } }, topologyKey: names.hostnameLabel, namespaces: NAMESPACES } },
          ],
        },
      },
    },
    { color: 'red' },
  );

const nodeAffinityPod = (prefix: string) => (i: number, names: WellKnownNames) =>
  basePod(`${prefix}-${i}`, 'default', {
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: names.zoneLabel, operator: 'In', values: ['zone1', 'zone2'] }] }],
        },
      },
    },
  });

const spreadingPod = (whenUnsatisfiable: string) => (i: number, names: WellKnownNames) =>
  basePod(
    `spreading-pod-${i}`,
    'default',
    { topologySpreadConstraints: [{ maxSkew: 5, topologyKey: names.zoneLabel, whenUnsatisfiable, labelSelector: { matchLabels: { color: 'blue' } } }] },
    { color: 'blue' },
  );

/** pod-low-priority.yaml (900m, priority unset) and pod-high-priority.yaml (3000m, priority 10). */
const lowPriorityPod = (i: number) => basePod(`low-${i}`, 'default', {}, undefined, '900m');
const highPriorityPod = (i: number) => basePod(`high-${i}`, 'default', { priority: 10 }, undefined, '3000m');

const MOONS = ['moon-1', 'moon-2', 'moon-3'];

/** The workloads in upstream's order, at upstream's 5000Nodes sizes (SchedulingBasic as issue 6 states it). */
export const WORKLOADS: Workload[] = [
  {
    name: 'SchedulingBasic',
    threshold: 680,
    nodes: 5000,
    initPods: 1000,
    measurePods: 10000,
    needs: [],
    node: plainNode,
    initPod: defaultPod('init-pod'),
    measurePod: defaultPod('pod'),
  },
  {
    name: 'SchedulingPodAntiAffinity',
    threshold: 60,
    nodes: 5000,
    initPods: 1000,
    measurePods: 1000,
    needs: ['InterPodAffinity'],
    node: plainNode,
    initPod: antiAffinityPod(SETUP),
    measurePod: antiAffinityPod(TEST),
  },
  {
    name: 'SchedulingPodAffinity',
    threshold: 35,
    nodes: 5000,
    initPods: 5000,
    measurePods: 1000,
    needs: ['InterPodAffinity'],
    node: zoned(['zone1']),
    initPod: affinityPod(SETUP),
    measurePod: affinityPod(TEST),
  },
  {
    name: 'SchedulingPreferredPodAffinity',
    threshold: 90,
    nodes: 5000,
    initPods: 5000,
    measurePods: 1000,
    needs: ['InterPodAffinity'],
    node: plainNode,
    initPod: preferredAffinityPod(SETUP),
    measurePod: preferredAffinityPod(TEST),
  },
  {
    name: 'SchedulingNodeAffinity',
    threshold: 220,
    nodes: 5000,
    initPods: 5000,
    measurePods: 1000,
    needs: ['NodeAffinity'],
    node: zoned(['zone1']),
    initPod: nodeAffinityPod('init-node-affinity'),
    measurePod: nodeAffinityPod('node-affinity'),
  },
  {
    name: 'TopologySpreading',
    threshold: 460,
    nodes: 5000,
    initPods: 5000,
    measurePods: 2000,
    needs: ['PodTopologySpread'],
    node: zoned(MOONS),
    initPod: defaultPod('init-pod'),
    measurePod: spreadingPod('DoNotSchedule'),
  },
  {
    name: 'PreferredTopologySpreading',
    threshold: 340,
    nodes: 5000,
    initPods: 5000,
    measurePods: 2000,
    needs: ['PodTopologySpread'],
    node: zoned(MOONS),
    initPod: defaultPod('init-pod'),
    measurePod: spreadingPod('ScheduleAnyway'),
  },
  {
    name: 'PreemptionBasic',
    threshold: null,
    nodes: 500,
    initPods: 2000,
    measurePods: 500,
    needs: ['DefaultPreemption'],
    node: plainNode,
    initPod: lowPriorityPod,
    measurePod: highPriorityPod,
  },
];
