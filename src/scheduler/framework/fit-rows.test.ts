import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BalancedAllocation } from '../plugins/node-resources-balanced-allocation/balanced-allocation.js';
import { NodeResourcesFit } from '../plugins/node-resources-fit/fit.js';
import { leastAllocatedFactory } from '../plugins/node-resources-fit/score-plugins.js';
import { CycleState } from './cycle-state.js';
import { FIT_COLUMNS, FIT_PODS, FIT_REQUESTED_CPU, FitRows } from './fit-rows.js';
import type { FrameworkHandle } from './handle.js';
import type { ScorePlugin } from './interfaces.js';
import { NodeInfo } from './node-info.js';
import { PodInfo } from './pod-info.js';
import { Snapshot } from './snapshot.js';
import type { Node, Pod } from './types.js';

let seq = 0;
const pod = (cpu: string | undefined, memory: string | undefined, eph?: string): Pod => {
  const requests: Record<string, string> = {};
  if (cpu !== undefined) requests.cpu = cpu;
  if (memory !== undefined) requests.memory = memory;
  if (eph !== undefined) requests['ephemeral-storage'] = eph;
  seq++;
  return { metadata: { name: `p${seq}`, namespace: 'ns', uid: `u${seq}` }, spec: { containers: [{ name: 'c', resources: { requests } }] } };
};
const node = (name: string, cpu: string, memory: string, pods: string, eph = '10Gi'): Node => ({
  metadata: { name },
  status: { allocatable: { cpu, memory, pods, 'ephemeral-storage': eph } },
});

/** A small deterministic generator, so a failure names a reproducible case. */
function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
}

test('a node on rows filters and scores exactly as the same node read from its objects', () => {
  const fit = new NodeResourcesFit();
  const handle = {} as FrameworkHandle;
  const scores: ScorePlugin[] = [leastAllocatedFactory(undefined, handle) as ScorePlugin, new BalancedAllocation()];
  const rows = new FitRows();
  const pick = random(42);
  const outcomes = new Map<number, number>();
  for (let c = 0; c < 400; c++) {
    const n = node(`n${c}`, `${2 + pick(4)}`, `${2 + pick(8)}Gi`, `${2 + pick(6)}`, `${1 + pick(3)}Gi`);
    const onRows = new NodeInfo(n);
    const plain = new NodeInfo(n);
    rows.attach(onRows);
    // Pods are added after the row exists: each addition must reach the row.
    for (let i = pick(5); i > 0; i--) {
      const p = new PodInfo(pod(`${pick(1500)}m`, pick(2) === 0 ? undefined : `${pick(2048)}Mi`, pick(2) === 0 ? undefined : `${pick(900)}Mi`));
      onRows.addPod(p);
      plain.addPod(p);
    }
    if (pick(3) === 0 && plain.pods.length > 0) {
      onRows.removePod(plain.pods[0].uid);
      plain.removePod(plain.pods[0].uid);
    }
    const incoming = pod(
      pick(3) === 0 ? undefined : `${pick(2000)}m`,
      pick(3) === 0 ? undefined : `${pick(3000)}Mi`,
      pick(4) === 0 ? `${pick(4)}Gi` : undefined,
    );
    const a = new CycleState();
    const b = new CycleState();
    fit.preFilter(a, incoming);
    fit.preFilter(b, incoming);
    const want = fit.filter(a, incoming, plain);
    const got = fit.filter(b, incoming, onRows);
    assert.equal(got.code, want.code, `case ${c}: filter code`);
    outcomes.set(got.code, (outcomes.get(got.code) ?? 0) + 1);
    assert.deepEqual(got.reasons, want.reasons, `case ${c}: filter reasons`);
    for (const pl of scores) assert.equal(pl.score(b, incoming, onRows), pl.score(a, incoming, plain), `case ${c}: ${pl.name}`);
  }
  // Both answers were compared many times: nodes that fit and nodes that do not.
  assert.equal(outcomes.size, 2);
  for (const [code, count] of outcomes) assert.ok(count > 50, `code ${code}: ${count} cases`);
});

test('rows follow their NodeInfo; copies have none, so changes to a copy never reach the table', () => {
  const s = new Snapshot();
  const ni = new NodeInfo(node('a', '4', '8Gi', '110'));
  s.put(ni);
  const row = () => s.fitRows.table.subarray(ni.fitRow * FIT_COLUMNS, (ni.fitRow + 1) * FIT_COLUMNS);
  ni.addPod(new PodInfo(pod('500m', '1Gi')));
  assert.equal(row()[FIT_PODS], 1);
  assert.equal(row()[FIT_REQUESTED_CPU], 500);

  const copy = ni.clone();
  assert.equal(copy.fitRows, undefined);
  copy.addPod(new PodInfo(pod('1', '1Gi')));
  assert.equal(row()[FIT_PODS], 1, 'a copy changed, the row did not');

  // The cache refreshes a snapshot node in place from a newer copy: same row, new numbers.
  const before = ni.fitRow;
  s.refresh(ni, copy);
  assert.equal(ni.fitRow, before);
  assert.equal(ni.fitRows, s.fitRows);
  assert.equal(row()[FIT_PODS], 2);
  assert.equal(row()[FIT_REQUESTED_CPU], 1500);
});

test('a removed node gives its row back, and the table grows past its first size keeping every row', () => {
  const s = new Snapshot();
  const nodes: NodeInfo[] = [];
  for (let i = 0; i < 200; i++) {
    const ni = new NodeInfo(node(`n${i}`, `${i + 1}`, '1Gi', '10'));
    s.put(ni);
    nodes.push(ni);
  }
  for (const ni of nodes) {
    assert.equal(s.fitRows.table[ni.fitRow * FIT_COLUMNS + 2], ni.allocatable.milliCPU, ni.name);
  }
  const freed = nodes[7].fitRow;
  s.remove(nodes[7]);
  assert.equal(nodes[7].fitRows, undefined);
  const again = new NodeInfo(node('late', '9', '1Gi', '10'));
  s.put(again);
  assert.equal(again.fitRow, freed);
});
