// The cross-cycle memos (per-node results by NodeInfo generation, the PreScore sums kept per
// incoming-pod key) must give exactly what a fresh computation gives while the cluster changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { PodInfo } from '../../framework/pod-info.js';
import { snapshotOf } from '../../framework/snapshot.js';
import type { Affinity, Node, Pod } from '../../framework/types.js';
import { type PreFilterState, preFilterStateKey } from './filtering.js';
import { InterPodAffinity } from './inter-pod-affinity.js';
import { expr, node, pod, term, weighted } from './testing.js';

function rng(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

const APPS = ['a', 'b', 'c'];
const KEYS = ['zone', 'host'];

function randomAffinity(r: (n: number) => number): Affinity | undefined {
  if (r(3) === 0) return undefined;
  const t = () => term(expr('app', 'In', [APPS[r(3)]]), KEYS[r(2)], r(4) === 0 ? ['ns1', 'ns2'] : undefined);
  const some = <T>(f: () => T): T[] | undefined => (r(2) === 0 ? undefined : [f()]);
  return {
    podAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: r(3) === 0 ? some(t) : undefined,
      preferredDuringSchedulingIgnoredDuringExecution: some(() => weighted(1 + r(5), t())),
    },
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: some(t),
      preferredDuringSchedulingIgnoredDuringExecution: some(() => weighted(1 + r(5), t())),
    },
  };
}

function randomPod(r: (n: number) => number, nodeName: string): Pod {
  return pod(nodeName, r(4) === 0 ? undefined : { app: APPS[r(3)] }, randomAffinity(r), r(3) === 0 ? 'ns2' : 'ns1');
}

const counts = (s: PreFilterState | undefined) =>
  s === undefined ? undefined : [s.existingAntiAffinityCounts, s.affinityCounts, s.antiAffinityCounts].map((m) => [...m].sort());

function cycle(pl: InterPodAffinity, incoming: Pod, infos: ReturnType<typeof snapshotOf>['nodeInfoList']) {
  const state = new CycleState();
  const pre = pl.preFilter(state, incoming);
  const filter = pre.isSuccess() ? infos.map((ni) => pl.filter(state, incoming, ni).reasons) : pre.code;
  const ps = pl.preScore(state, incoming, infos);
  let scores: number[] | string = ps.isSkip() ? 'skip' : String(ps.code);
  if (ps.isSuccess()) {
    const list = infos.map((ni) => ({ name: ni.name, score: pl.score(state, incoming, ni) }));
    pl.normalizeScore(state, incoming, list);
    scores = list.map((x) => x.score);
  }
  return { counts: counts(state.read(preFilterStateKey)), filter, scores };
}

test('InterPodAffinity memoized PreFilter/PreScore equal a fresh computation as pods and nodes change', () => {
  const r = rng(7);
  const nodes: Node[] = [];
  for (let i = 0; i < 12; i++) nodes.push(node(`n${i}`, { zone: `z${i % 3}`, host: `n${i}` }));
  nodes.push(node('bare', {}));
  const snap = snapshotOf([], nodes);
  const long = new InterPodAffinity({ hardPodAffinityWeight: 3 }, { snapshotSharedLister: () => snap });
  const templates: Pod[] = [];
  for (let i = 0; i < 6; i++) templates.push(randomPod(r, ''));
  const placed: { node: string; uid: string }[] = [];
  for (let step = 0; step < 300; step++) {
    const op = r(10);
    if (op < 6 || placed.length === 0) {
      const name = nodes[r(nodes.length)].metadata.name!;
      const t = templates[r(templates.length)];
      const p = r(2) === 0 ? { ...t, metadata: { ...t.metadata, uid: `s${step}`, name: `s${step}` } } : randomPod(r, name);
      snap.get(name)!.addPod(new PodInfo({ ...p, spec: { ...p.spec, nodeName: name } }));
      placed.push({ node: name, uid: p.metadata.uid! });
    } else if (op < 9) {
      const [x] = placed.splice(r(placed.length), 1);
      snap.get(x.node)!.removePod(x.uid);
    } else {
      const i = r(12);
      snap.get(`n${i}`)!.setNode(node(`n${i}`, { zone: `z${r(4)}`, host: `n${i}` }));
    }
    snap.rebuildAffinityLists();
    // A structurally equal but new incoming pod object each cycle, as the queue would give.
    const t = templates[r(templates.length)];
    const incoming: Pod = JSON.parse(JSON.stringify(t));
    const fresh = new InterPodAffinity({ hardPodAffinityWeight: 3 }, { snapshotSharedLister: () => snap });
    assert.deepEqual(cycle(long, incoming, snap.nodeInfoList), cycle(fresh, incoming, snap.nodeInfoList), `step ${step}`);
  }
});
