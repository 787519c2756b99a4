import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NodeInfo } from '../../framework/node-info.js';
import { PodInfo } from '../../framework/pod-info.js';
import { snapshotOf } from '../../framework/snapshot.js';
import { Code, Status, unresolvable, unschedulable } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { nodesWherePreemptionMightHelp, podEligibleToPreemptOthers } from './candidates.js';
import { resolveArgs } from './default-preemption.js';
import { HIGH, hasPlugin, LARGE, LOW, MEDIUM, MID, makeEnv, mkNode, mkPod, NEG, preFiltered, SMALL, VERY_HIGH, VERY_LARGE } from './test-harness.js';

const FIT = ['NodeResourcesFit'];
const ONE_POD = { pods: '1' };

// Upstream 1.21 TestPostFilter.
test('PostFilter', async () => {
  const cases: {
    name: string;
    pod: Pod;
    pods: Pod[];
    nodes: string[];
    statuses: [string, Status][];
    want: { code: Code; reasons: string[]; node?: string };
  }[] = [
    {
      name: 'pod with higher priority can be made schedulable',
      pod: mkPod('p', { priority: HIGH }),
      pods: [mkPod('p1', { node: 'node1' })],
      nodes: ['node1'],
      statuses: [['node1', new Status(Code.Unschedulable)]],
      want: { code: Code.Success, reasons: [], node: 'node1' },
    },
    {
      name: 'pod with tied priority is still unschedulable',
      pod: mkPod('p'),
      pods: [mkPod('p1', { node: 'node1' })],
      nodes: ['node1'],
      statuses: [['node1', new Status(Code.Unschedulable)]],
      want: { code: Code.Unschedulable, reasons: ['0/1 nodes are available: 1 No victims found on node node1 for preemptor pod p.'] },
    },
    {
      name: 'preemption should respect filteredNodesStatuses',
      pod: mkPod('p', { priority: HIGH }),
      pods: [mkPod('p1', { node: 'node1' })],
      nodes: ['node1'],
      statuses: [['node1', new Status(Code.UnschedulableAndUnresolvable)]],
      want: { code: Code.Unschedulable, reasons: ['0/1 nodes are available: 1 Preemption is not helpful for scheduling.'] },
    },
    {
      name: 'pod can be made schedulable on one node',
      pod: mkPod('p', { priority: MID }),
      pods: [mkPod('p1', { node: 'node1', priority: HIGH }), mkPod('p2', { node: 'node2', priority: LOW })],
      nodes: ['node1', 'node2'],
      statuses: [
        ['node1', new Status(Code.Unschedulable)],
        ['node2', new Status(Code.Unschedulable)],
      ],
      want: { code: Code.Success, reasons: [], node: 'node2' },
    },
    {
      name: 'preemptionPolicy Never',
      pod: mkPod('p', { priority: HIGH, preemptionPolicy: 'Never' }),
      pods: [mkPod('p1', { node: 'node1' })],
      nodes: ['node1'],
      statuses: [['node1', new Status(Code.Unschedulable)]],
      want: { code: Code.Unschedulable, reasons: [] },
    },
  ];
  for (const c of cases) {
    const env = makeEnv({ nodes: c.nodes.map((n) => mkNode(n, ONE_POD)), pods: c.pods, preemptor: c.pod, filters: FIT, preFilters: FIT });
    const r = await env.pl.postFilter(preFiltered(env, c.pod), c.pod, new Map(c.statuses));
    assert.equal(r.status.code, c.want.code, c.name);
    assert.deepEqual(r.status.reasons, c.want.reasons, c.name);
    assert.equal(r.nominatedNodeName, c.want.node, c.name);
  }
});

// Upstream TestSelectBestCandidate (no PDBs).
test('selectCandidate follows pickOneNodeForPreemption', async () => {
  const p = (name: string, priority: number, req: typeof SMALL, start = 0) => mkPod(name, { node: `node${name[1]}`, priority, req, start });
  const cases: { name: string; nodes: number; pod: Pod; pods: Pod[]; expected: string[] }[] = [
    { name: 'No node needs preemption', nodes: 1, pod: mkPod('p', { priority: HIGH, req: LARGE }), pods: [p('p1', MID, SMALL)], expected: ['node1'] },
    {
      name: 'a pod that fits on both nodes when lower priority pods are preempted',
      nodes: 2,
      pod: mkPod('p', { priority: HIGH, req: LARGE }),
      pods: [p('p1', MID, LARGE), p('p2', MID, LARGE)],
      expected: ['node1', 'node2'],
    },
    {
      name: 'node with min highest priority pod is picked',
      nodes: 3,
      pod: mkPod('p', { priority: HIGH, req: VERY_LARGE }),
      pods: [p('p1.1', MID, MEDIUM), p('p1.2', MID, LARGE), p('p2.1', MID, MEDIUM), p('p2.2', LOW, MEDIUM), p('p3.1', LOW, MEDIUM), p('p3.2', LOW, MEDIUM)],
      expected: ['node3'],
    },
    {
      name: 'when highest priorities are the same, minimum sum of priorities is picked',
      nodes: 3,
      pod: mkPod('p', { priority: HIGH, req: VERY_LARGE }),
      pods: [p('p1.1', MID, MEDIUM), p('p1.2', MID, LARGE), p('p2.1', MID, LARGE), p('p2.2', LOW, MEDIUM), p('p3.1', MID, MEDIUM), p('p3.2', MID, MEDIUM)],
      expected: ['node2'],
    },
    {
      name: 'when highest priority and sum are the same, minimum number of pods is picked',
      nodes: 3,
      pod: mkPod('p', { priority: HIGH, req: VERY_LARGE }),
      pods: [
        p('p1.1', MID, SMALL),
        p('p1.2', NEG, SMALL),
        p('p1.3', MID, SMALL),
        p('p1.4', NEG, SMALL),
        p('p2.1', MID, LARGE),
        p('p2.2', NEG, MEDIUM),
        p('p3.1', MID, MEDIUM),
        p('p3.2', NEG, SMALL),
        p('p3.3', LOW, SMALL),
      ],
      expected: ['node2'],
    },
    {
      name: 'sum of adjusted priorities is considered',
      nodes: 3,
      pod: mkPod('p', { priority: HIGH, req: VERY_LARGE }),
      pods: [
        p('p1.1', MID, SMALL),
        p('p1.2', NEG, SMALL),
        p('p1.3', NEG, SMALL),
        p('p2.1', MID, LARGE),
        p('p2.2', NEG, MEDIUM),
        p('p3.1', MID, MEDIUM),
        p('p3.2', NEG, SMALL),
        p('p3.3', LOW, SMALL),
      ],
      expected: ['node2'],
    },
    {
      name: 'non-overlapping lowest high priority, sum priorities, and number of pods',
      nodes: 4,
      pod: mkPod('p', { priority: VERY_HIGH, req: VERY_LARGE }),
      pods: [
        p('p1.1', MID, SMALL),
        p('p1.2', LOW, SMALL),
        p('p1.3', LOW, SMALL),
        p('p2.1', HIGH, LARGE),
        p('p3.1', MID, MEDIUM),
        p('p3.2', LOW, SMALL),
        p('p3.3', LOW, SMALL),
        p('p3.4', LOW, MEDIUM),
        p('p4.1', MID, MEDIUM),
        p('p4.2', MID, SMALL),
        p('p4.3', MID, SMALL),
        p('p4.4', NEG, SMALL),
      ],
      expected: ['node1'],
    },
    {
      name: "same priority, same number of victims, different start time for each node's pod",
      nodes: 3,
      pod: mkPod('p', { priority: HIGH, req: VERY_LARGE }),
      pods: [
        p('p1.1', MID, MEDIUM, 2),
        p('p1.2', MID, MEDIUM, 2),
        p('p2.1', MID, MEDIUM, 3),
        p('p2.2', MID, MEDIUM, 3),
        p('p3.1', MID, MEDIUM, 1),
        p('p3.2', MID, MEDIUM, 1),
      ],
      expected: ['node2'],
    },
    {
      name: 'same priority, same number of victims, different start time for all pods',
      nodes: 3,
      pod: mkPod('p', { priority: HIGH, req: VERY_LARGE }),
      pods: [
        p('p1.1', MID, MEDIUM, 4),
        p('p1.2', MID, MEDIUM, 2),
        p('p2.1', MID, MEDIUM, 5),
        p('p2.2', MID, MEDIUM, 1),
        p('p3.1', MID, MEDIUM, 3),
        p('p3.2', MID, MEDIUM, 6),
      ],
      expected: ['node3'],
    },
    {
      name: 'different priority, same number of victims, different start time for all pods',
      nodes: 3,
      pod: mkPod('p', { priority: HIGH, req: VERY_LARGE }),
      pods: [
        p('p1.1', LOW, MEDIUM, 4),
        p('p1.2', MID, MEDIUM, 2),
        p('p2.1', MID, MEDIUM, 6),
        p('p2.2', LOW, MEDIUM, 1),
        p('p3.1', LOW, MEDIUM, 3),
        p('p3.2', MID, MEDIUM, 5),
      ],
      expected: ['node2'],
    },
  ];
  for (const c of cases) {
    const nodes = Array.from({ length: c.nodes }, (_, i) => mkNode(`node${i + 1}`));
    for (const offset of [0, c.nodes - 1]) {
      const env = makeEnv({ nodes, pods: c.pods, filters: FIT, preFilters: FIT });
      env.pl.offsetRand = () => offset;
      const state = preFiltered(env, c.pod);
      const { numCandidates } = env.pl.getOffsetAndNumCandidates(c.nodes);
      const { candidates } = env.pl.dryRunPreemption(state, c.pod, env.snapshot.list(), [], offset, numCandidates);
      const { selectCandidate } = await import('./candidates.js');
      const best = selectCandidate(candidates, 1_000_000);
      assert.ok(c.expected.includes(best?.name ?? ''), `${c.name}: got ${best?.name}`);
    }
  }
});

// Upstream TestPodEligibleToPreemptOthers.
test('podEligibleToPreemptOthers', () => {
  const terminating = [mkPod('p1', { priority: LOW, node: 'node1', terminating: true })];
  const cases: [string, Pod, Pod[], string[], Status | undefined, boolean][] = [
    [
      'Pod with nominated node',
      mkPod('p_with_nominated_node', { priority: HIGH, nominated: 'node1' }),
      terminating,
      ['node1'],
      unresolvable("node(s) had taint {node.orch.io/not-ready: }, that the pod didn't tolerate"),
      true,
    ],
    [
      'Pod with nominated node, but without nominated node status',
      mkPod('p_without_status', { priority: HIGH, nominated: 'node1' }),
      terminating,
      ['node1'],
      undefined,
      false,
    ],
    ['Pod without nominated node', mkPod('p_without_nominated_node', { priority: HIGH }), [], [], undefined, true],
    [
      "Pod with 'PreemptNever' preemption policy",
      mkPod('p_with_preempt_never_policy', { priority: HIGH, preemptionPolicy: 'Never' }),
      [],
      [],
      undefined,
      false,
    ],
    ['Pod nominated where only a higher-priority pod terminates', mkPod('p2', { priority: LOW, nominated: 'node1' }), terminating, ['node1'], undefined, true],
  ];
  for (const [name, pod, pods, nodes, status, want] of cases) {
    const snap = snapshotOf(
      pods,
      nodes.map((n) => mkNode(n)),
    );
    assert.equal(podEligibleToPreemptOthers(pod, snap, status), want, name);
  }
});

// Upstream TestNodesWherePreemptionMightHelp (reasons abbreviated: only the code matters).
test('nodesWherePreemptionMightHelp', () => {
  const names = ['node1', 'node2', 'node3', 'node4'];
  const nodes = names.map((n) => new NodeInfo(mkNode(n)));
  const U = (r = '') => unschedulable(r);
  const X = (r = '') => unresolvable(r);
  const cases: [string, [string, Status][], string[]][] = [
    ['No node should be attempted', names.map((n) => [n, X('x')]), []],
    [
      'ErrReasonAffinityNotMatch should be tried',
      [
        ['node1', U("node(s) didn't match pod affinity/anti-affinity")],
        ['node2', X()],
        ['node3', X()],
      ],
      ['node1', 'node4'],
    ],
    [
      'Mix of failed predicates works fine',
      [
        ['node1', X('node(s) had no available disk')],
        ['node2', U('Insufficient memory')],
      ],
      ['node2', 'node3', 'node4'],
    ],
    [
      'UnschedulableAndUnresolvable status should be skipped but Unschedulable should be tried',
      [
        ['node2', X()],
        ['node3', U()],
        ['node4', X()],
      ],
      ['node1', 'node3'],
    ],
  ];
  for (const [name, statuses, want] of cases) {
    const r = nodesWherePreemptionMightHelp(nodes, new Map(statuses));
    assert.deepEqual(
      r.potential.map((n) => n.name),
      want,
      name,
    );
    assert.equal(r.statuses.size, 4 - want.length, name);
  }
});

// Upstream TestPreempt (without extenders): victims deleted, and no second preemption while they terminate.
test('preempt deletes victims once', async () => {
  const cases: { name: string; pod: Pod; pods: Pod[]; nodes: string[]; filters: string[]; requires?: string; node: string; victims: string[] }[] = [
    {
      name: 'basic preemption logic',
      pod: mkPod('p', { priority: HIGH, req: VERY_LARGE, preemptionPolicy: 'PreemptLowerPriority' }),
      pods: [
        mkPod('p1.1', { node: 'node1', priority: LOW, req: SMALL }),
        mkPod('p1.2', { node: 'node1', priority: LOW, req: SMALL }),
        mkPod('p2.1', { node: 'node2', priority: HIGH, req: LARGE }),
        mkPod('p3.1', { node: 'node3', priority: MID, req: MEDIUM }),
      ],
      nodes: ['node1', 'node2', 'node3'],
      filters: FIT,
      node: 'node1',
      victims: ['p1.1', 'p1.2'],
    },
    {
      name: 'preemption for topology spread constraints',
      requires: 'PodTopologySpread',
      pod: mkPod('p', {
        priority: HIGH,
        labels: { foo: '' },
        spec: {
          topologySpreadConstraints: ['zone', 'hostname'].map((topologyKey) => ({
            maxSkew: 1,
            topologyKey,
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchExpressions: [{ key: 'foo', operator: 'Exists' }] },
          })),
        },
      }),
      pods: [
        mkPod('p-a1', { node: 'node-a', priority: HIGH, labels: { foo: '' } }),
        mkPod('p-a2', { node: 'node-a', priority: HIGH, labels: { foo: '' } }),
        mkPod('p-b1', { node: 'node-b', priority: LOW, labels: { foo: '' } }),
        mkPod('p-x1', { node: 'node-x', priority: HIGH, labels: { foo: '' } }),
        mkPod('p-x2', { node: 'node-x', priority: HIGH, labels: { foo: '' } }),
      ],
      nodes: ['node-a/zone1', 'node-b/zone1', 'node-x/zone2'],
      filters: ['PodTopologySpread'],
      node: 'node-b',
      victims: ['p-b1'],
    },
    {
      name: 'no preempting in pod',
      pod: mkPod('p', { priority: HIGH, req: VERY_LARGE, preemptionPolicy: 'Never' }),
      pods: [mkPod('p1.1', { node: 'node1', priority: LOW, req: SMALL }), mkPod('p1.2', { node: 'node1', priority: LOW, req: SMALL })],
      nodes: ['node1', 'node2'],
      filters: FIT,
      node: '',
      victims: [],
    },
    {
      name: 'PreemptionPolicy is nil',
      pod: mkPod('p', { priority: HIGH, req: VERY_LARGE }),
      pods: [
        mkPod('p1.1', { node: 'node1', priority: LOW, req: SMALL }),
        mkPod('p1.2', { node: 'node1', priority: LOW, req: SMALL }),
        mkPod('p2.1', { node: 'node2', priority: HIGH, req: LARGE }),
        mkPod('p3.1', { node: 'node3', priority: MID, req: MEDIUM }),
      ],
      nodes: ['node1', 'node2', 'node3'],
      filters: FIT,
      node: 'node1',
      victims: ['p1.1', 'p1.2'],
    },
  ];
  for (const c of cases) {
    if (c.requires !== undefined && !hasPlugin(c.requires)) continue;
    const env = makeEnv({ nodes: c.nodes.map((n) => mkNode(n)), pods: c.pods, preemptor: c.pod, filters: c.filters, preFilters: c.filters });
    const state = preFiltered(env, c.pod);
    const r = await env.pl.preempt(state, c.pod, new Map());
    assert.ok(r.status.isSuccess(), `${c.name}: ${r.status}`);
    assert.equal(r.nominatedNodeName, c.node, c.name);
    assert.deepEqual(env.deleted.sort(), c.victims, c.name);
    const events = env.cluster.events.filter((e) => e.reason === 'Preempted').map((e) => e.message);
    assert.deepEqual(
      events,
      c.victims.map(() => `Preempted by default/p on node ${c.node}`),
      c.name,
    );
    // The victims now terminate and the pod is nominated: no further preemption.
    env.cluster.pods.update('p', 'default', (p) => ({ ...p, status: { ...p.status, nominatedNodeName: r.nominatedNodeName } }));
    env.resnapshot(
      c.pods.map((p) => (c.victims.includes(p.metadata.name ?? '') ? { ...p, metadata: { ...p.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' } } : p)),
    );
    env.deleted.length = 0;
    const again = await env.pl.preempt(preFiltered(env, c.pod), c.pod, new Map());
    assert.ok(again.nominatedNodeName === '' || env.deleted.length === 0, `${c.name}: preempted again`);
  }
});

test('prepareCandidate clears lower-priority nominations on the node', async () => {
  const env = makeEnv({ nodes: [mkNode('node1')], pods: [], preemptor: mkPod('p', { priority: HIGH }), filters: FIT });
  for (const [name, prio] of [
    ['low', LOW],
    ['high', VERY_HIGH],
  ] as const) {
    const pod = env.cluster.addPod(mkPod(name, { priority: prio, nominated: 'node1' }));
    env.fwk.nominator.addNominatedPod(new PodInfo(pod), 'node1');
  }
  const s = await env.pl.prepareCandidate({ name: 'node1', victims: { pods: [], numPDBViolations: 0 } }, mkPod('p', { priority: HIGH }));
  assert.ok(s.isSuccess());
  assert.deepEqual(
    env.fwk.nominator.nominatedPodsForNode('node1').map((pi) => pi.pod.metadata.name),
    ['high'],
  );
  assert.equal(env.cluster.pods.get('low', 'default')?.status?.nominatedNodeName, '');
  assert.equal(env.cluster.pods.get('high', 'default')?.status?.nominatedNodeName, 'node1');
});

// Upstream ValidateDefaultPreemptionArgs and the v1beta1 defaults.
test('DefaultPreemptionArgs', () => {
  assert.deepEqual(resolveArgs(undefined), { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 });
  assert.deepEqual(resolveArgs({ minCandidateNodesPercentage: 40 }), { minCandidateNodesPercentage: 40, minCandidateNodesAbsolute: 100 });
  assert.throws(() => resolveArgs({ minCandidateNodesPercentage: 101 }), /not in valid range \[0, 100\]/);
  assert.throws(() => resolveArgs({ minCandidateNodesAbsolute: -1 }), /not in valid range \[0, inf\)/);
  assert.throws(() => resolveArgs({ minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0 }), /cannot be zero/);
  const env = makeEnv({ nodes: [], pods: [], filters: FIT, args: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 } });
  assert.deepEqual(
    [50, 1000, 5000].map((n) => env.pl.calculateNumCandidates(n)),
    [50, 100, 500],
  );
});
