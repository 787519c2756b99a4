import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { snapshotOf } from '../../framework/snapshot.js';
import type { Node, Pod } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';
import { PodTopologySpread, resolveDefaultConstraints } from './pod-topology-spread.js';
import { exists, fakeHandle, HOST, mkNode, mkPod, spread } from './testing.js';

const SOFT = 'ScheduleAnyway';
const foo = { foo: '' };
const on = (node: string, n: number, labels: Record<string, string> = foo) => Array.from({ length: n }, () => mkPod({ node, labels }));
const host = (name: string, extra: Record<string, string> = {}) => mkNode(name, { [HOST]: name, ...extra });

/** Scores of the candidate `nodes`; `failed` nodes are in the snapshot only. Skip reads as undefined. */
function scores(pod: Pod, existing: Pod[], nodes: Node[], failed: Node[] = [], args?: unknown, services: unknown[] = []) {
  const snap = snapshotOf(existing, [...nodes, ...failed]);
  const pl = new PodTopologySpread(args as undefined, fakeHandle(snap, { services: services as never[] }));
  const state = new CycleState();
  const infos = nodes.map((n) => snap.get(n.metadata.name!)!);
  const s = pl.preScore(state, pod, infos);
  if (s.isSkip()) return undefined;
  assert.ok(s.isSuccess(), s.message());
  const list = infos.map((ni) => ({ name: ni.name, score: pl.score(state, pod, ni) }));
  assert.ok(pl.normalizeScore(state, pod, list).isSuccess());
  return Object.fromEntries(list.map((x) => [x.name, x.score]));
}

// Upstream TestPodTopologySpreadScore.
test('PodTopologySpread Score (upstream cases)', () => {
  const byHost = (skew = 1) => mkPod({ labels: foo, constraints: [spread(skew, HOST, SOFT, exists('foo'))] });
  const byZone = mkPod({ labels: foo, constraints: [spread(1, 'zone', SOFT, exists('foo'))] });
  const zoneAndHost = mkPod({ labels: foo, constraints: [spread(1, 'zone', SOFT, exists('foo')), spread(1, HOST, SOFT, exists('foo'))] });
  const cases: [string, Pod, Pod[], Node[], Node[], Record<string, number>][] = [
    ['one constraint on node, no existing pods', byHost(), [], [host('node-a'), host('node-b')], [], { 'node-a': 100, 'node-b': 100 }],
    [
      'one constraint on node, only one node is candidate',
      byHost(),
      [...on('node-a', 2), ...on('node-b', 1)],
      [host('node-a')],
      [host('node-b')],
      { 'node-a': 100 },
    ],
    [
      'all nodes have the same number of matching pods',
      byHost(),
      [...on('node-a', 1), ...on('node-b', 1)],
      [host('node-a'), host('node-b')],
      [],
      { 'node-a': 100, 'node-b': 100 },
    ],
    [
      'one constraint on node, all 4 nodes are candidates (2/1/0/3)',
      byHost(),
      [...on('node-a', 2), ...on('node-b', 1), ...on('node-d', 3)],
      [host('node-a'), host('node-b'), host('node-c'), host('node-d')],
      [],
      { 'node-a': 40, 'node-b': 80, 'node-c': 100, 'node-d': 0 },
    ],
    [
      'maxSkew=2 waters differences down',
      byHost(2),
      [...on('node-a', 2), ...on('node-b', 1), ...on('node-d', 3)],
      [host('node-a'), host('node-b'), host('node-c'), host('node-d')],
      [],
      { 'node-a': 50, 'node-b': 83, 'node-c': 100, 'node-d': 16 },
    ],
    [
      'maxSkew=3 with 4/3/2/1',
      byHost(3),
      [...on('node-a', 4), ...on('node-b', 3), ...on('node-c', 2), ...on('node-d', 1)],
      [host('node-a'), host('node-b'), host('node-c'), host('node-d')],
      [],
      { 'node-a': 33, 'node-b': 55, 'node-c': 77, 'node-d': 100 },
    ],
    [
      'one constraint on node, 3 out of 4 nodes are candidates',
      byHost(),
      [...on('node-a', 4), ...on('node-b', 2), ...on('node-x', 1), ...on('node-y', 3)],
      [host('node-a'), host('node-b'), host('node-x')],
      [host('node-y')],
      { 'node-a': 16, 'node-b': 66, 'node-x': 100 },
    ],
    [
      "one node doesn't have the topology key",
      byHost(),
      [...on('node-a', 4), ...on('node-b', 2), ...on('node-x', 1), ...on('node-y', 3)],
      [host('node-a'), mkNode('node-b', { n: 'node-b' }), host('node-x')],
      [host('node-y')],
      { 'node-a': 20, 'node-b': 0, 'node-x': 100 },
    ],
    [
      'one constraint on zone, 3 out of 4 nodes are candidates',
      byZone,
      [...on('node-a', 4), ...on('node-b', 2), ...on('node-x', 1), ...on('node-y', 3)],
      [host('node-a', { zone: 'zone1' }), host('node-b', { zone: 'zone1' }), host('node-x', { zone: 'zone2' })],
      [host('node-y', { zone: 'zone2' })],
      { 'node-a': 62, 'node-b': 62, 'node-x': 100 },
    ],
    [
      'two constraints on zone and node, 2 out of 4 nodes are candidates',
      zoneAndHost,
      [...on('node-a', 2), ...on('node-b', 1), ...on('node-x', 2), ...on('node-y', 4)],
      [host('node-a', { zone: 'zone1' }), host('node-x', { zone: 'zone2' })],
      [host('node-b', { zone: 'zone1' }), host('node-y', { zone: 'zone2' })],
      { 'node-a': 100, 'node-x': 54 },
    ],
  ];
  const got = cases.map(([name, pod, existing, nodes, failed]) => [name, scores(pod, existing, nodes, failed)]);
  assert.deepEqual(
    got,
    cases.map(([name, , , , , want]) => [name, want]),
  );
});

test('PodTopologySpread soft default constraints use the selector of the Services selecting the pod', () => {
  const nodes = [host('n1', { [ORCH_NAMES.zoneLabel]: 'z1' }), host('n2', { [ORCH_NAMES.zoneLabel]: 'z1' }), host('n3', { [ORCH_NAMES.zoneLabel]: 'z2' })];
  const app = { app: 'web' };
  const existing = [...on('n1', 2, app), ...on('n2', 1, app)];
  const svc = { metadata: { name: 'web', namespace: '' }, spec: { selector: app } };
  // No Service, no owner: no default selector, so nothing to score.
  assert.equal(scores(mkPod({ labels: app }), existing, nodes), undefined);
  // System defaults (hostname maxSkew 3, zone maxSkew 5): the empty zone and node win.
  const r = scores(mkPod({ labels: app }), existing, nodes, [], undefined, [svc]);
  assert.ok(r !== undefined && r.n3 === 100 && r.n3 > r.n2 && r.n2 > r.n1, JSON.stringify(r));
  // A List default with DoNotSchedule filters through PreFilter instead; scoring has nothing.
  assert.equal(scores(mkPod({ labels: app }), existing, nodes, [], { defaultConstraints: [spread(1, HOST, 'DoNotSchedule')] }, [svc]), undefined);
});

test('PodTopologySpread args: defaulting type and validation (upstream ValidatePodTopologySpreadArgs)', () => {
  const h = { names: ORCH_NAMES };
  assert.deepEqual(resolveDefaultConstraints(undefined, h), [
    { topologyKey: ORCH_NAMES.hostnameLabel, whenUnsatisfiable: SOFT, maxSkew: 3 },
    { topologyKey: ORCH_NAMES.zoneLabel, whenUnsatisfiable: SOFT, maxSkew: 5 },
  ]);
  const list = [spread(1, 'zone', SOFT)];
  assert.deepEqual(resolveDefaultConstraints({ defaultConstraints: list }, h), list, 'List is inferred');
  assert.deepEqual(resolveDefaultConstraints({ defaultingType: 'List' }, h), [], 'an empty List disables defaults');
  const bad: [unknown, RegExp][] = [
    [{ defaultingType: 'System', defaultConstraints: list }, /defaultingType: Invalid value: "System": when .defaultConstraints are not empty/],
    [{ defaultingType: 'Foo' }, /defaultingType: Unsupported value: "Foo"/],
    [{ defaultConstraints: [spread(0, 'zone', SOFT)] }, /maxSkew: Invalid value: 0: must be greater than zero/],
    [{ defaultConstraints: [spread(1, '', SOFT)] }, /topologyKey: Required value: can not be empty/],
    [{ defaultConstraints: [spread(1, 'zone', 'Sometimes')] }, /whenUnsatisfiable: Unsupported value: "Sometimes"/],
    [{ defaultConstraints: [spread(1, 'zone', SOFT, exists('foo'))] }, /labelSelector: Forbidden/],
    [{ defaultConstraints: [spread(1, 'zone', SOFT), spread(2, 'zone', SOFT)] }, /defaultConstraints\[1\]: Duplicate value: "\{zone, ScheduleAnyway\}"/],
  ];
  for (const [args, re] of bad) assert.throws(() => resolveDefaultConstraints(args, h), re);
});
