import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Code } from '../../framework/status.js';
import type { Pod, PodDisruptionBudget } from '../../framework/types.js';
import type { DefaultPreemptionArgs } from './default-preemption.js';
import { HIGH, hasPlugin, LARGE, LOW, MEDIUM, MID, makeEnv, mkNode, mkPod, preFiltered, SMALL, VERY_HIGH, VERY_LARGE } from './test-harness.js';

const FIT = ['NodeResourcesFit'];
const pdb = (allowed: number, disrupted: string[] = []): PodDisruptionBudget => ({
  metadata: { name: `pdb-${allowed}-${disrupted.join('-')}`, namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'foo' } } },
  status: { disruptionsAllowed: allowed, disruptedPods: Object.fromEntries(disrupted.map((d) => [d, '2024-01-01T00:00:00Z'])) },
});
const foo = { app: 'foo' };

interface Case {
  name: string;
  nodes: string[];
  testPods: Pod[];
  initPods: Pod[];
  filters: string[];
  preFilters?: string[];
  requires?: string;
  pdbs?: PodDisruptionBudget[];
  fakeFilterCode?: Code;
  args?: DefaultPreemptionArgs;
  /** Upstream's rand.Seed(4) offsets for 5 nodes, cycle by cycle. */
  offsets?: number[];
  /** Per cycle: [node, victim names, PDB violations]. */
  expected: [string, string[], number?][][];
  filterCalls: number[];
}

const two = ['node1', 'node2'];
const five = ['node1', 'node2', 'node3', 'node4', 'node5'];
const fiveMid = (prios: number[], labels: (Record<string, string> | undefined)[] = []) =>
  prios.map((p, i) => mkPod(`p${i + 1}`, { node: `node${i + 1}`, priority: p, req: LARGE, labels: labels[i] }));

// Upstream 1.21 TestDryRunPreemption, parallelism 1.
const cases: Case[] = [
  {
    name: 'a pod that does not fit on any node',
    nodes: two,
    filters: ['FalseFilter'],
    testPods: [mkPod('p', { priority: HIGH })],
    initPods: [mkPod('p1', { node: 'node1', priority: MID }), mkPod('p2', { node: 'node2', priority: MID })],
    expected: [[]],
    filterCalls: [2],
  },
  {
    name: 'a pod that fits with no preemption',
    nodes: two,
    filters: ['TrueFilter'],
    testPods: [mkPod('p', { priority: HIGH })],
    initPods: [mkPod('p1', { node: 'node1', priority: MID }), mkPod('p2', { node: 'node2', priority: MID })],
    expected: [
      [
        ['node1', []],
        ['node2', []],
      ],
    ],
    filterCalls: [4],
  },
  {
    name: 'a pod that fits on one node with no preemption',
    nodes: two,
    filters: ['MatchFilter'],
    testPods: [mkPod('node1', { priority: HIGH })],
    initPods: [mkPod('p1', { node: 'node1', priority: MID }), mkPod('p2', { node: 'node2', priority: MID })],
    expected: [[['node1', []]]],
    filterCalls: [3],
  },
  {
    name: 'a pod that fits on both nodes when lower priority pods are preempted',
    nodes: two,
    filters: FIT,
    preFilters: FIT,
    testPods: [mkPod('p', { priority: HIGH, req: LARGE })],
    initPods: [mkPod('p1', { node: 'node1', priority: MID, req: LARGE }), mkPod('p2', { node: 'node2', priority: MID, req: LARGE })],
    expected: [
      [
        ['node1', ['p1']],
        ['node2', ['p2']],
      ],
    ],
    filterCalls: [4],
  },
  {
    name: 'a pod that would fit on the nodes, but other pods running are higher priority, no preemption would happen',
    nodes: two,
    filters: FIT,
    preFilters: FIT,
    testPods: [mkPod('p', { priority: LOW, req: LARGE })],
    initPods: [mkPod('p1', { node: 'node1', priority: MID, req: LARGE }), mkPod('p2', { node: 'node2', priority: MID, req: LARGE })],
    expected: [[]],
    filterCalls: [0],
  },
  {
    name: 'medium priority pod is preempted, but lower priority one stays as it is small',
    nodes: two,
    filters: FIT,
    preFilters: FIT,
    testPods: [mkPod('p', { priority: HIGH, req: LARGE })],
    initPods: [
      mkPod('p1.1', { node: 'node1', priority: LOW, req: SMALL }),
      mkPod('p1.2', { node: 'node1', priority: MID, req: LARGE }),
      mkPod('p2', { node: 'node2', priority: MID, req: LARGE }),
    ],
    expected: [
      [
        ['node1', ['p1.2']],
        ['node2', ['p2']],
      ],
    ],
    filterCalls: [5],
  },
  {
    name: 'mixed priority pods are preempted',
    nodes: two,
    filters: FIT,
    preFilters: FIT,
    testPods: [mkPod('p', { priority: HIGH, req: LARGE })],
    initPods: [
      mkPod('p1.1', { node: 'node1', priority: MID, req: SMALL }),
      mkPod('p1.2', { node: 'node1', priority: LOW, req: SMALL }),
      mkPod('p1.3', { node: 'node1', priority: MID, req: MEDIUM }),
      mkPod('p1.4', { node: 'node1', priority: HIGH, req: SMALL }),
      mkPod('p2', { node: 'node2', priority: HIGH, req: LARGE }),
    ],
    expected: [[['node1', ['p1.2', 'p1.3']]]],
    filterCalls: [4],
  },
  {
    name: 'mixed priority pods are preempted, pick later StartTime one when priorities are equal',
    nodes: two,
    filters: FIT,
    preFilters: FIT,
    testPods: [mkPod('p', { priority: HIGH, req: LARGE })],
    initPods: [
      mkPod('p1.1', { node: 'node1', priority: LOW, req: SMALL, start: 5 }),
      mkPod('p1.2', { node: 'node1', priority: LOW, req: SMALL, start: 4 }),
      mkPod('p1.3', { node: 'node1', priority: MID, req: MEDIUM, start: 3 }),
      mkPod('p1.4', { node: 'node1', priority: HIGH, req: SMALL, start: 2 }),
      mkPod('p2', { node: 'node2', priority: HIGH, req: LARGE, start: 1 }),
    ],
    expected: [[['node1', ['p1.1', 'p1.3']]]],
    filterCalls: [4],
  },
  {
    name: 'pod with anti-affinity is preempted',
    nodes: two,
    requires: 'InterPodAffinity',
    filters: ['NodeResourcesFit', 'InterPodAffinity'],
    preFilters: ['NodeResourcesFit', 'InterPodAffinity'],
    testPods: [mkPod('p', { priority: HIGH, req: SMALL, labels: { foo: '' } })],
    initPods: [
      mkPod('p1.1', {
        node: 'node1',
        priority: LOW,
        req: SMALL,
        labels: { foo: '' },
        spec: {
          affinity: {
            podAntiAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: [
                { labelSelector: { matchExpressions: [{ key: 'foo', operator: 'Exists' }] }, topologyKey: 'hostname' },
              ],
            },
          },
        },
      }),
      mkPod('p1.2', { node: 'node1', priority: MID, req: SMALL }),
      mkPod('p1.3', { node: 'node1', priority: HIGH, req: SMALL }),
      mkPod('p2', { node: 'node2', priority: HIGH, req: SMALL }),
    ],
    expected: [[['node1', ['p1.1']]]],
    filterCalls: [3],
  },
  {
    name: 'preemption to resolve pod topology spread filter failure',
    nodes: ['node-a/zone1', 'node-b/zone1', 'node-x/zone2'],
    requires: 'PodTopologySpread',
    filters: ['PodTopologySpread'],
    preFilters: ['PodTopologySpread'],
    testPods: [
      mkPod('p', {
        priority: HIGH,
        labels: { foo: '' },
        spec: {
          topologySpreadConstraints: [
            { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchExpressions: [{ key: 'foo', operator: 'Exists' }] } },
            {
              maxSkew: 1,
              topologyKey: 'hostname',
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchExpressions: [{ key: 'foo', operator: 'Exists' }] },
            },
          ],
        },
      }),
    ],
    initPods: [
      mkPod('pod-a1', { node: 'node-a', priority: MID, labels: { foo: '' } }),
      mkPod('pod-a2', { node: 'node-a', priority: LOW, labels: { foo: '' } }),
      mkPod('pod-b1', { node: 'node-b', priority: LOW, labels: { foo: '' } }),
      mkPod('pod-x1', { node: 'node-x', priority: HIGH, labels: { foo: '' } }),
      mkPod('pod-x2', { node: 'node-x', priority: HIGH, labels: { foo: '' } }),
    ],
    expected: [
      [
        ['node-a', ['pod-a2']],
        ['node-b', ['pod-b1']],
      ],
    ],
    filterCalls: [5],
  },
  {
    name: 'get Unschedulable in the preemption phase when the filter plugins filtering the nodes',
    nodes: two,
    filters: FIT,
    preFilters: FIT,
    fakeFilterCode: Code.Unschedulable,
    testPods: [mkPod('p', { priority: HIGH, req: LARGE })],
    initPods: [mkPod('p1', { node: 'node1', priority: MID, req: LARGE }), mkPod('p2', { node: 'node2', priority: MID, req: LARGE })],
    expected: [[]],
    filterCalls: [2],
  },
  {
    name: 'preemption with violation of same pdb',
    nodes: ['node1'],
    filters: FIT,
    preFilters: FIT,
    testPods: [mkPod('p', { priority: HIGH, req: VERY_LARGE })],
    initPods: [
      mkPod('p1.1', { node: 'node1', priority: MID, req: MEDIUM, labels: foo }),
      mkPod('p1.2', { node: 'node1', priority: MID, req: MEDIUM, labels: foo }),
    ],
    pdbs: [pdb(1)],
    expected: [[['node1', ['p1.1', 'p1.2'], 1]]],
    filterCalls: [3],
  },
  {
    name: 'preemption with violation of the pdb with pod whose eviction was processed, the victim doesnt belong to DisruptedPods',
    nodes: ['node1'],
    filters: FIT,
    preFilters: FIT,
    testPods: [mkPod('p', { priority: HIGH, req: VERY_LARGE })],
    initPods: [
      mkPod('p1.1', { node: 'node1', priority: MID, req: MEDIUM, labels: foo }),
      mkPod('p1.2', { node: 'node1', priority: MID, req: MEDIUM, labels: foo }),
    ],
    pdbs: [pdb(1, ['p2'])],
    expected: [[['node1', ['p1.1', 'p1.2'], 1]]],
    filterCalls: [3],
  },
  {
    name: 'preemption with violation of the pdb with pod whose eviction was processed, the victim belongs to DisruptedPods',
    nodes: ['node1'],
    filters: FIT,
    preFilters: FIT,
    testPods: [mkPod('p', { priority: HIGH, req: VERY_LARGE })],
    initPods: [
      mkPod('p1.1', { node: 'node1', priority: MID, req: MEDIUM, labels: foo }),
      mkPod('p1.2', { node: 'node1', priority: MID, req: MEDIUM, labels: foo }),
    ],
    pdbs: [pdb(1, ['p1.2'])],
    expected: [[['node1', ['p1.1', 'p1.2'], 0]]],
    filterCalls: [3],
  },
  {
    name: "preemption with violation of the pdb with pod whose eviction was processed, the victim which belongs to DisruptedPods is treated as 'nonViolating'",
    nodes: ['node1'],
    filters: FIT,
    preFilters: FIT,
    testPods: [mkPod('p', { priority: HIGH, req: VERY_LARGE })],
    initPods: [
      mkPod('p1.1', { node: 'node1', priority: MID, req: MEDIUM, labels: foo }),
      mkPod('p1.2', { node: 'node1', priority: MID, req: MEDIUM, labels: foo }),
      mkPod('p1.3', { node: 'node1', priority: MID, req: MEDIUM, labels: foo }),
    ],
    pdbs: [pdb(1, ['p1.3'])],
    expected: [[['node1', ['p1.1', 'p1.2', 'p1.3'], 1]]],
    filterCalls: [4],
  },
  {
    name: 'all nodes are possible candidates, but DefaultPreemptionArgs limits to 2',
    nodes: five,
    filters: FIT,
    preFilters: FIT,
    args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
    offsets: [4],
    testPods: [mkPod('p', { priority: HIGH, req: LARGE })],
    initPods: fiveMid([MID, MID, MID, MID, MID]),
    // offset 4: node5 (yes), node1 (yes)
    expected: [
      [
        ['node1', ['p1']],
        ['node5', ['p5']],
      ],
    ],
    filterCalls: [4],
  },
  {
    name: 'some nodes are not possible candidates, DefaultPreemptionArgs limits to 2',
    nodes: five,
    filters: FIT,
    preFilters: FIT,
    args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
    offsets: [4],
    testPods: [mkPod('p', { priority: HIGH, req: LARGE })],
    initPods: fiveMid([MID, VERY_HIGH, MID, MID, VERY_HIGH]),
    // offset 4: node5 (no), node1 (yes), node2 (no), node3 (yes)
    expected: [
      [
        ['node1', ['p1']],
        ['node3', ['p3']],
      ],
    ],
    filterCalls: [4],
  },
  {
    name: 'preemption offset across multiple scheduling cycles and wrap around',
    nodes: five,
    filters: FIT,
    preFilters: FIT,
    args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 1 },
    offsets: [4, 1, 3],
    testPods: [mkPod('tp1', { priority: HIGH, req: LARGE }), mkPod('tp2', { priority: HIGH, req: LARGE }), mkPod('tp3', { priority: HIGH, req: LARGE })],
    initPods: fiveMid([MID, MID, MID, MID, MID]),
    expected: [
      [
        ['node1', ['p1']],
        ['node5', ['p5']],
      ],
      [
        ['node2', ['p2']],
        ['node3', ['p3']],
      ],
      [
        ['node4', ['p4']],
        ['node5', ['p5']],
      ],
    ],
    filterCalls: [4, 4, 4],
  },
  {
    name: 'preemption looks past numCandidates until a non-PDB violating node is found',
    nodes: five,
    filters: FIT,
    preFilters: FIT,
    args: { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 2 },
    offsets: [4],
    pdbs: [pdb(0)],
    testPods: [mkPod('p', { priority: HIGH, req: LARGE })],
    initPods: fiveMid([MID, MID, MID, MID, MID], [foo, foo, undefined, undefined, foo]),
    // offset 4: node5 (yes, pdb), node1 (yes, pdb), node2 (yes, pdb: the list is full), node3 (yes)
    expected: [
      [
        ['node1', ['p1'], 1],
        ['node3', ['p3']],
        ['node5', ['p5'], 1],
      ],
    ],
    filterCalls: [8],
  },
];

for (const c of cases) {
  test(`dryRunPreemption: ${c.name}`, { skip: c.requires !== undefined && !hasPlugin(c.requires) ? `${c.requires} not registered yet` : false }, () => {
    const env = makeEnv({ nodes: c.nodes.map((n) => mkNode(n)), pods: c.initPods, filters: c.filters, preFilters: c.preFilters, args: c.args });
    env.fakeFilter.code = c.fakeFilterCode ?? Code.Success;
    const nodeInfos = env.snapshot.list().slice();
    nodeInfos.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let prevCalls = 0;
    c.testPods.forEach((pod, cycle) => {
      const state = preFiltered(env, pod);
      const offset = c.offsets?.[cycle] ?? 0;
      env.pl.offsetRand = () => offset;
      const { offset: off, numCandidates } = env.pl.getOffsetAndNumCandidates(nodeInfos.length);
      const got = env.pl.dryRunPreemption(state, pod, nodeInfos, c.pdbs ?? [], off, numCandidates).candidates;
      const summary = got
        .map((cand): [string, string[], number] => [cand.name, cand.victims.pods.map((p) => p.metadata.name ?? '').sort(), cand.victims.numPDBViolations])
        .sort((a, b) => (a[0] < b[0] ? -1 : 1));
      assert.deepEqual(
        summary,
        c.expected[cycle].map(([n, v, pdbs]) => [n, v, pdbs ?? 0]),
        `cycle ${cycle}`,
      );
      assert.equal(env.fakeFilter.calls - prevCalls, c.filterCalls[cycle], `cycle ${cycle}: filter calls`);
      prevCalls = env.fakeFilter.calls;
    });
  });
}
