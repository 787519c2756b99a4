import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { snapshotOf } from '../../framework/snapshot.js';
import { Code } from '../../framework/status.js';
import type { Affinity, Node, Pod } from '../../framework/types.js';
import { InterPodAffinity } from './inter-pod-affinity.js';
import { expr, exprs, node, pod, term, weighted } from './testing.js';

/** PreScore, Score and NormalizeScore over `nodes`, as upstream's test loop; Skip scores all 0. */
function scores(incoming: Pod, pods: Pod[], nodes: Node[], hardPodAffinityWeight = 1): number[] | { code: Code; message: string } {
  const snap = snapshotOf(pods, nodes);
  const pl = new InterPodAffinity({ hardPodAffinityWeight }, { snapshotSharedLister: () => snap });
  const state = new CycleState();
  const infos = nodes.map((n) => snap.get(n.metadata.name!)!);
  const s = pl.preScore(state, incoming, infos);
  if (s.isSkip()) return nodes.map(() => 0);
  if (!s.isSuccess()) return { code: s.code, message: s.message() };
  const list = infos.map((ni) => ({ name: ni.name, score: pl.score(state, incoming, ni) }));
  assert.ok(pl.normalizeScore(state, incoming, list).isSuccess());
  return list.map((x) => x.score);
}

const china = { region: 'China' };
const india = { region: 'India' };
const az1 = { az: 'az1' };
const az2 = { az: 'az2' };
const chinaAz1 = { region: 'China', az: 'az1' };
const s1 = { security: 'S1' };
const s2 = { security: 'S2' };
const prefer = (w: number, sel: ReturnType<typeof expr>, key: string) => [weighted(w, term(sel, key))];
const stayWithS1InRegion: Affinity = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: prefer(5, expr('security', 'In', ['S1']), 'region') } };
const stayWithS2InRegion: Affinity = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: prefer(6, expr('security', 'In', ['S2']), 'region') } };
const affinity3: Affinity = {
  podAffinity: {
    preferredDuringSchedulingIgnoredDuringExecution: [
      weighted(8, term(exprs(['security', 'NotIn', ['S1']], ['security', 'In', ['S2']]), 'region')),
      weighted(2, term(exprs(['security', 'Exists'], ['wrongkey', 'DoesNotExist']), 'region')),
    ],
  },
};
const hardAffinity: Affinity = {
  podAffinity: {
    requiredDuringSchedulingIgnoredDuringExecution: [
      term(expr('security', 'In', ['S1', 'value2']), 'region'),
      term(exprs(['security', 'Exists'], ['wrongkey', 'DoesNotExist']), 'region'),
    ],
  },
};
const awayFromS1InAz: Affinity = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: prefer(5, expr('security', 'In', ['S1']), 'az') } };
const awayFromS2InAz: Affinity = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: prefer(5, expr('security', 'In', ['S2']), 'az') } };
const stayWithS1InRegionAwayFromS2InAz: Affinity = {
  podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: prefer(8, expr('security', 'In', ['S1']), 'region') },
  podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: prefer(5, expr('security', 'In', ['S2']), 'az') },
};
const n = (labels: Record<string, string>[]) => labels.map((l, i) => node(`node${i + 1}`, l));

// Upstream TestPreferredAffinity (the cases that do not need the namespaceSelector gate).
test('InterPodAffinity Score (upstream TestPreferredAffinity cases)', () => {
  const cases: [string, Pod, Pod[], Node[], number[]][] = [
    ['all nodes are same priority as Affinity is nil', pod('', s1), [], n([china, india, az1]), [0, 0, 0]],
    [
      'affinity: matching topology key and pods gets the high score',
      pod('', s1, stayWithS1InRegion),
      [pod('node1', s1), pod('node2', s2), pod('node3', s1)],
      n([china, india, az1]),
      [100, 0, 0],
    ],
    [
      'all nodes with the same topology value as a matching pod score the same',
      pod('', undefined, stayWithS1InRegion),
      [pod('node1', s1)],
      n([china, chinaAz1, india]),
      [100, 100, 0],
    ],
    [
      'the region with more matching pods scores higher',
      pod('', s1, stayWithS2InRegion),
      [pod('node1', s2), pod('node1', s2), pod('node2', s2), pod('node3', s2), pod('node4', s2), pod('node5', s2)],
      n([china, india, china, china, india]),
      // 1.21 normalizes with min 0: India's 12 against China's 24 (upstream's later min-max gives 0).
      [100, 50, 100, 100, 50],
    ],
    [
      'different label operators and values, some failing to match',
      pod('', s1, affinity3),
      [pod('node1', s1), pod('node2', s2), pod('node3', s1)],
      n([china, india, az1]),
      [20, 100, 0],
    ],
    [
      'symmetry: existing pods’ preferred affinity',
      pod('', s2),
      [pod('node1', s1, stayWithS1InRegion), pod('node2', s2, stayWithS2InRegion)],
      n([china, india, az1]),
      [0, 100, 0],
    ],
    [
      'symmetry: existing pods’ required affinity counts with hardPodAffinityWeight',
      pod('', s1),
      [pod('node1', s1, hardAffinity), pod('node2', s2, hardAffinity)],
      n([china, india, az1]),
      [100, 100, 0],
    ],
    [
      'anti-affinity: a node without matching pods gets the high score',
      pod('', s1, awayFromS1InAz),
      [pod('node1', s1), pod('node2', s2)],
      n([az1, china]),
      [0, 100],
    ],
    [
      'anti-affinity: a node without the topology key gets the high score',
      pod('', s1, awayFromS1InAz),
      [pod('node1', s1), pod('node2', s1)],
      n([az1, china]),
      [0, 100],
    ],
    [
      'anti-affinity: more matching pods, lower score',
      pod('', s1, awayFromS1InAz),
      [pod('node1', s1), pod('node1', s1), pod('node2', s2)],
      n([az1, india]),
      [0, 100],
    ],
    ['anti-affinity symmetry', pod('', s2), [pod('node1', s1, awayFromS2InAz), pod('node2', s2, awayFromS1InAz)], n([az1, az2]), [0, 100]],
    ['affinity and anti-affinity together', pod('', s1, stayWithS1InRegionAwayFromS2InAz), [pod('node1', s1), pod('node2', s1)], n([china, az1]), [100, 0]],
    [
      'affinity and anti-affinity with the same labels as the existing pods',
      pod('', s1, stayWithS1InRegionAwayFromS2InAz),
      [pod('node1', s1), pod('node1', s1), pod('node2', s1), pod('node3', s1), pod('node3', s1), pod('node4', s1), pod('node5', s1)],
      n([chinaAz1, india, china, china, india]),
      [100, 40, 100, 100, 40],
    ],
    [
      'affinity, anti-affinity and symmetry together',
      pod('', s1, stayWithS1InRegionAwayFromS2InAz),
      [pod('node1', s1), pod('node2', s2), pod('node3', undefined, stayWithS1InRegionAwayFromS2InAz), pod('node4', undefined, awayFromS1InAz)],
      n([china, az1, india, az2]),
      [100, 0, 100, 0],
    ],
    [
      'avoid panic when partial nodes in a topology have no pods with affinity',
      pod('', s1),
      [pod('node1', s1), pod('node2', undefined, stayWithS1InRegionAwayFromS2InAz)],
      n([china, china]),
      // Both nodes score 8; with 0 as the minimum (1.21) both normalize to 100.
      [100, 100],
    ],
  ];
  const got = cases.map(([name, incoming, pods, nodes]) => [name, scores(incoming, pods, nodes)]);
  assert.deepEqual(
    got,
    cases.map(([name, , , , want]) => [name, want]),
  );
});

test('InterPodAffinity PreScore fails on an unparsable preferred term', () => {
  const bad: Affinity = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: prefer(8, expr('security', 'In', ['{{.bad-value.}}']), 'region') } };
  const r = scores(pod('', undefined, bad), [], n([china, china]));
  assert.ok(!Array.isArray(r));
  assert.equal(r.code, Code.Error);
  assert.match(r.message, /Invalid value: "\{\{\.bad-value\.\}\}"/);
});

// Upstream TestPreferredAffinityWithHardPodAffinitySymmetricWeight.
test('InterPodAffinity Score honours hardPodAffinityWeight', () => {
  const hard: Affinity = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term(expr('service', 'In', ['S1']), 'region')] } };
  const existing = () => [pod('node1', undefined, hard), pod('node2', undefined, hard)];
  assert.deepEqual(scores(pod('', { service: 'S1' }), existing(), n([china, india, az1]), 1), [100, 100, 0], 'default weight');
  assert.deepEqual(scores(pod('', { service: 'S1' }), existing(), n([china, india, az1]), 0), [0, 0, 0], 'zero weight');
  assert.deepEqual(scores(pod('', { service: 'S1' }, undefined, 'other'), existing(), n([china, india, az1]), 1), [0, 0, 0], 'other namespace');
});

test('InterPodAffinity NormalizeScore keeps 0 in the range, as 1.21', () => {
  // Scores 5 and 10 normalize to 50 and 100 (min starts at 0), not to 0 and 100.
  const r = scores(pod('', s1, stayWithS1InRegion), [pod('node1', s1), pod('node2', s1), pod('node3', s1)], n([china, india, india]));
  assert.deepEqual(r, [50, 100, 100]);
});
