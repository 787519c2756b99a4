// The per-node matching-pod counts memoized across cycles (by NodeInfo generation) and the
// PreFilter/PreScore passes kept across cycles (SpreadAggregate) must give exactly what a fresh
// computation gives while pods and nodes change, nodes come and go and the list is reordered.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { PodInfo } from '../../framework/pod-info.js';
import { snapshotOf } from '../../framework/snapshot.js';
import type { Node, Pod, TopologySpreadConstraint } from '../../framework/types.js';
import { preFilterStateKey } from './filtering.js';
import { PodTopologySpread } from './pod-topology-spread.js';
import { fakeHandle, HOST, mkNode, mkPod, spread } from './testing.js';

function rng(seed: number): (n: number) => number {
  let x = seed;
  return (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}

const APPS = ['a', 'b', 'c'];
const KEYS = ['zone', HOST];

function randomPod(r: (n: number) => number, node?: string): Pod {
  const constraints: TopologySpreadConstraint[] = [];
  const n = r(3);
  for (let i = 0; i < n; i++) {
    const sel = r(3) === 0 ? { matchExpressions: [{ key: 'app', operator: 'Exists' }] } : { matchLabels: { app: APPS[r(3)] } };
    constraints.push(spread(1 + r(3), KEYS[r(2)], r(2) === 0 ? 'DoNotSchedule' : 'ScheduleAnyway', sel));
  }
  return mkPod({
    node,
    ns: r(4) === 0 ? 'other' : '',
    labels: r(4) === 0 ? undefined : { app: APPS[r(3)] },
    constraints: constraints.length > 0 ? constraints : undefined,
    nodeAffinityIn: r(4) === 0 ? ['zone', ['z0', 'z1']] : undefined,
  });
}

function cycle(pl: PodTopologySpread, pod: Pod, infos: readonly NodeInfo[]) {
  const state = new CycleState();
  const pre = pl.preFilter(state, pod);
  const s = state.read(preFilterStateKey);
  const filter = pre.isSuccess() ? infos.map((ni) => pl.filter(state, pod, ni).reasons) : pre.code;
  const ps = pl.preScore(state, pod, infos);
  let scores: number[] | string = ps.isSkip() ? 'skip' : String(ps.code);
  if (ps.isSuccess()) {
    const list = infos.map((ni) => ({ name: ni.name, score: pl.score(state, pod, ni) }));
    pl.normalizeScore(state, pod, list);
    scores = list.map((x) => x.score);
  }
  const paths = s === undefined ? undefined : [...s.criticalPaths].map(([k, p]) => [k, p.v0, p.n0, p.v1, p.n1]);
  return { counts: s === undefined ? undefined : [...s.matchNum], paths, filter, scores };
}

test('PodTopologySpread memoized counts equal a fresh computation as pods and nodes change', () => {
  const r = rng(11);
  const nodes: Node[] = [];
  for (let i = 0; i < 12; i++) nodes.push(mkNode(`n${i}`, { zone: `z${i % 3}`, [HOST]: `n${i}` }));
  nodes.push(mkNode('bare', { [HOST]: 'bare' }));
  const snap = snapshotOf([], nodes);
  const services = [{ metadata: { name: 'svc', namespace: '' }, spec: { selector: { app: 'a' } } }];
  const long = new PodTopologySpread(undefined, fakeHandle(snap, { services }));
  const templates: Pod[] = [];
  for (let i = 0; i < 6; i++) templates.push(randomPod(r));
  const placed: { node: string; uid: string }[] = [];
  let scored = 0;
  for (let step = 0; step < 300; step++) {
    const op = r(10);
    if (op < 6 || placed.length === 0) {
      const name = nodes[r(nodes.length)].metadata.name!;
      const p = randomPod(r, name);
      if (r(8) === 0) p.metadata.deletionTimestamp = '2021-01-01T00:00:00Z';
      snap.get(name)!.addPod(new PodInfo(p));
      placed.push({ node: name, uid: p.metadata.uid! });
    } else if (op < 9) {
      const [x] = placed.splice(r(placed.length), 1);
      snap.get(x.node)!.removePod(x.uid);
    } else {
      const i = r(12);
      const labels: Record<string, string> = { [HOST]: `n${i}` };
      if (r(4) !== 0) labels.zone = `z${r(4)}`;
      snap.get(`n${i}`)!.setNode(mkNode(`n${i}`, labels));
    }
    snap.rebuildAffinityLists();
    // A structurally equal but new incoming pod object each cycle, as the queue would give.
    const incoming: Pod = JSON.parse(JSON.stringify(templates[r(templates.length)]));
    const fresh = new PodTopologySpread(undefined, fakeHandle(snap, { services }), false);
    const got = cycle(long, incoming, snap.nodeInfoList);
    if (Array.isArray(got.scores)) scored++;
    assert.deepEqual(got, cycle(fresh, incoming, snap.nodeInfoList), `step ${step}`);
  }
  assert.ok(scored > 50, `scored ${scored}`);
});

test('PodTopologySpread aggregates equal a fresh computation as the node list changes', () => {
  for (const seed of [23, 24, 25, 26, 27, 28]) nodeListChanges(seed);
});

function nodeListChanges(seed: number): void {
  const r = rng(seed);
  const all: NodeInfo[] = [];
  for (let i = 0; i < 16; i++) {
    const labels: Record<string, string> = { [HOST]: `n${i}` };
    if (i % 5 !== 4) labels.zone = `z${i % 4}`;
    all.push(snapshotOf([], [mkNode(`n${i}`, labels)]).nodeInfoList[0]);
  }
  const snap = snapshotOf([], []);
  const setList = (list: NodeInfo[]) => {
    snap.nodeInfoList = list;
    snap.nodeInfoMap = new Map(list.map((ni) => [ni.name, ni]));
  };
  setList(all.slice(0, 10));
  const services = [{ metadata: { name: 'svc', namespace: '' }, spec: { selector: { app: 'b' } } }];
  const long = new PodTopologySpread(undefined, fakeHandle(snap, { services }));
  const templates: Pod[] = [];
  for (let i = 0; i < 8; i++) templates.push(randomPod(r));
  let scored = 0;
  for (let step = 0; step < 400; step++) {
    const op = r(12);
    const list = snap.nodeInfoList;
    if (op < 5) {
      const ni = list[r(list.length)];
      ni.addPod(new PodInfo(randomPod(r, ni.name)));
    } else if (op < 7) {
      const ni = list[r(list.length)];
      if (ni.pods.length > 0) ni.removePod(ni.pods[r(ni.pods.length)].uid);
    } else if (op < 8 && list.length > 2) {
      // A node leaves (same array changed in place, or a new array).
      const next = list.slice();
      next.splice(r(next.length), 1);
      if (r(2) === 0) setList(next);
      else {
        list.length = 0;
        list.push(...next);
        setList(list);
      }
    } else if (op < 9) {
      // A node joins at a random position.
      const out = all.filter((ni) => !list.includes(ni));
      if (out.length > 0) {
        const next = list.slice();
        next.splice(r(next.length + 1), 0, out[r(out.length)]);
        setList(next);
      }
    } else if (op < 10) {
      // Reordered (zones interleaved differently).
      const next = list.slice();
      for (let i = next.length - 1; i > 0; i--) {
        const j = r(i + 1);
        [next[i], next[j]] = [next[j], next[i]];
      }
      setList(next);
    } else if (op < 11) {
      const ni = list[r(list.length)];
      const labels: Record<string, string> = { [HOST]: ni.name };
      if (r(4) !== 0) labels.zone = `z${r(4)}`;
      ni.setNode(mkNode(ni.name, labels));
    } else {
      // The node object goes but pods remain (a ghost NodeInfo in the list).
      const ni = list[r(list.length)];
      if (ni.node !== undefined && r(3) === 0) ni.removeNode();
      else if (ni.node === undefined) ni.setNode(mkNode(ni.name, { [HOST]: ni.name, zone: 'z1' }));
    }
    snap.rebuildAffinityLists();
    const incoming: Pod = JSON.parse(JSON.stringify(templates[r(templates.length)]));
    const fresh = new PodTopologySpread(undefined, fakeHandle(snap, { services }), false);
    const got = cycle(long, incoming, snap.nodeInfoList);
    if (Array.isArray(got.scores)) scored++;
    assert.deepEqual(got, cycle(fresh, incoming, snap.nodeInfoList), `seed ${seed} step ${step}`);
  }
  assert.ok(scored > 50, `scored ${scored}`);
}
