import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { PodInfo } from '../../framework/pod-info.js';
import { snapshotOf } from '../../framework/snapshot.js';
import { Code } from '../../framework/status.js';
import type { Node, Pod } from '../../framework/types.js';
import { ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_NODE_LABEL_NOT_MATCH, preFilterStateKey } from './filtering.js';
import { PodTopologySpread } from './pod-topology-spread.js';
import { exists, fakeHandle, mkNode, mkPod, spread } from './testing.js';

const HARD = 'DoNotSchedule';
const fourNodes = (): Node[] => [
  mkNode('node-a', { zone: 'zone1', node: 'node-a' }),
  mkNode('node-b', { zone: 'zone1', node: 'node-b' }),
  mkNode('node-x', { zone: 'zone2', node: 'node-x' }),
  mkNode('node-y', { zone: 'zone2', node: 'node-y' }),
];
const foo = { foo: '' };
/** Matching pods spread as a/b/x/y, labelled foo. */
const spreadAs = (...n: number[]) =>
  ['node-a', 'node-b', 'node-x', 'node-y'].flatMap((node, i) => Array.from({ length: n[i] }, () => mkPod({ node, labels: foo })));

function fits(pod: Pod, existing: Pod[], nodes: Node[]): Record<string, boolean> {
  const snap = snapshotOf(existing, nodes);
  const pl = new PodTopologySpread(undefined, fakeHandle(snap));
  const state = new CycleState();
  const s = pl.preFilter(state, pod);
  assert.ok(s.isSuccess() || s.isSkip(), s.message());
  const out: Record<string, boolean> = {};
  for (const n of nodes) out[n.metadata.name!] = s.isSkip() || pl.filter(state, pod, snap.get(n.metadata.name!)!).isSuccess();
  return out;
}

const all = (a: boolean, b: boolean, x: boolean, y: boolean) => ({ 'node-a': a, 'node-b': b, 'node-x': x, 'node-y': y });

// Upstream TestSingleConstraint.
test('PodTopologySpread Filter with one constraint (upstream cases)', () => {
  const zone = (sel = exists('foo')) => mkPod({ labels: foo, constraints: [spread(1, 'zone', HARD, sel)] });
  const byNode = (skew: number, labels: Record<string, string> = foo) => mkPod({ labels, constraints: [spread(skew, 'node', HARD, exists('foo'))] });
  const cases: [string, Pod, Pod[], Node[], Record<string, boolean>][] = [
    ['no existing pods', zone(), [], fourNodes(), all(true, true, true, true)],
    ["no existing pods, incoming pod doesn't match itself", zone(exists('bar')), [], fourNodes(), all(true, true, true, true)],
    [
      "existing pods with mis-matched namespace don't count",
      zone(),
      [
        mkPod({ node: 'node-a', ns: 'ns1', labels: foo }),
        mkPod({ node: 'node-a', ns: 'ns2', labels: foo }),
        mkPod({ node: 'node-x', labels: foo }),
        mkPod({ node: 'node-y', labels: foo }),
      ],
      fourNodes(),
      all(true, true, false, false),
    ],
    ['pods spread across zones as 3/3, all nodes fit', zone(), spreadAs(2, 1, 0, 3), fourNodes(), all(true, true, true, true)],
    [
      "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
      zone(),
      spreadAs(1, 1, 1, 1),
      [mkNode('node-a', { zone: 'zone1', node: 'node-a' }), mkNode('node-b', { zon: 'zone1', node: 'node-b' }), ...fourNodes().slice(2)],
      all(true, false, false, false),
    ],
    ['pods spread across nodes as 2/1/0/3, only node-x fits', byNode(1), spreadAs(2, 1, 0, 3), fourNodes(), all(false, false, true, false)],
    ['pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit', byNode(2), spreadAs(2, 1, 0, 3), fourNodes(), all(false, true, true, false)],
    [
      "pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
      byNode(1, { bar: '' }),
      spreadAs(2, 1, 0, 3),
      fourNodes(),
      all(false, true, true, false),
    ],
    [
      'incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits',
      mkPod({ labels: foo, nodeAffinityIn: ['node', ['node-a', 'node-y']], constraints: [spread(1, 'node', HARD, exists('foo'))] }),
      spreadAs(2, 1, 0, 3),
      fourNodes(),
      // node-b and node-x would be rejected by NodeAffinity, which this test does not run.
      all(true, true, true, false),
    ],
  ];
  for (const [name, pod, existing, nodes, want] of cases) assert.deepEqual(fits(pod, existing, nodes), want, name);
});

// Upstream TestMultipleConstraints.
test('PodTopologySpread Filter with two constraints (upstream cases)', () => {
  const both = (zoneSel = exists('foo'), nodeSel = exists('foo'), labels: Record<string, string> = foo) =>
    mkPod({ labels, constraints: [spread(1, 'zone', HARD, zoneSel), spread(1, 'node', HARD, nodeSel)] });
  assert.deepEqual(fits(both(), spreadAs(2, 1, 0, 3), fourNodes()), all(false, false, true, false), 'spreads = [3/3, 2/1/0/3]');
  assert.deepEqual(fits(both(), spreadAs(2, 1, 0, 4), fourNodes()), all(false, false, false, false), 'spreads = [3/4, 2/1/0/4]');
  const mixed = [mkPod({ node: 'node-a', labels: foo }), mkPod({ node: 'node-y', labels: { bar: '' } })];
  assert.deepEqual(
    fits(both(exists('foo'), exists('bar'), { foo: '', bar: '' }), mixed, fourNodes()),
    all(false, false, true, false),
    'different labelSelectors, spreads = [1/0, 1/0/0/1]',
  );
});

test('PodTopologySpread Filter reasons and codes', () => {
  const nodes = [mkNode('node-a', { zone: 'zone1' }), mkNode('node-b', { other: 'x' }), mkNode('node-x', { zone: 'zone2' })];
  const pod = mkPod({ labels: foo, constraints: [spread(1, 'zone', HARD, exists('foo'))] });
  const snap = snapshotOf([mkPod({ node: 'node-a', labels: foo })], nodes);
  const pl = new PodTopologySpread(undefined, fakeHandle(snap));
  const state = new CycleState();
  assert.ok(pl.preFilter(state, pod).isSuccess());
  const a = pl.filter(state, pod, snap.get('node-a')!);
  assert.equal(a.code, Code.Unschedulable);
  assert.deepEqual(a.reasons, [ERR_REASON_CONSTRAINTS_NOT_MATCH]);
  const b = pl.filter(state, pod, snap.get('node-b')!);
  assert.equal(b.code, Code.UnschedulableAndUnresolvable);
  assert.deepEqual(b.reasons, [ERR_REASON_NODE_LABEL_NOT_MATCH]);
  assert.ok(pl.filter(state, pod, snap.get('node-x')!).isSuccess());
  // A pod without hard constraints skips Filter (upstream's empty state passes every node).
  assert.ok(pl.preFilter(new CycleState(), mkPod({ labels: foo })).isSkip());
});

// Upstream TestPreFilterStateAddPod/RemovePod in spirit: the state after AddPod equals the state computed with the pod.
test('PodTopologySpread AddPod/RemovePod update counts and critical paths', () => {
  const pod = mkPod({ labels: foo, constraints: [spread(1, 'zone', HARD, exists('foo')), spread(1, 'node', HARD, exists('foo'))] });
  const existing = spreadAs(1, 0, 1, 2);
  const added = mkPod({ node: 'node-b', labels: foo });
  const stateOf = (pods: Pod[]) => {
    const snap = snapshotOf(pods, fourNodes());
    const pl = new PodTopologySpread(undefined, fakeHandle(snap));
    const st = new CycleState();
    pl.preFilter(st, pod);
    return { pl, st, snap };
  };
  const view = (st: CycleState) => {
    const s = st.read(preFilterStateKey)!;
    return { counts: [...s.matchNum].sort(), paths: [...s.criticalPaths].map(([k, p]) => [k, p.n0, p.n1]) };
  };
  const withAdded = view(stateOf([...existing, added]).st);
  const { pl, st, snap } = stateOf(existing);
  const before = view(st);
  const clone = st.clone();
  const pi = new PodInfo(added);
  assert.ok(pl.preFilterExtensions().addPod(st, pod, pi, snap.get('node-b')!).isSuccess());
  assert.deepEqual(view(st), withAdded);
  assert.deepEqual(view(clone), before, 'clone is independent');
  assert.ok(pl.preFilterExtensions().removePod(st, pod, pi, snap.get('node-b')!).isSuccess());
  assert.deepEqual(view(st).counts, before.counts);
  // A pod of another namespace changes nothing.
  pl.preFilterExtensions().addPod(st, pod, new PodInfo(mkPod({ node: 'node-b', ns: 'other', labels: foo })), snap.get('node-b')!);
  assert.deepEqual(view(st).counts, before.counts);
});
