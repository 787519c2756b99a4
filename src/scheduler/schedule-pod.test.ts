import assert from 'node:assert/strict';
import { test } from 'node:test';
import { numFeasibleNodesToFind, PodScheduler } from './schedule-pod.js';

test('numFeasibleNodesToFind follows upstream', () => {
  const cases: [number, number, number][] = [
    // [nodes, percentageOfNodesToScore, want]
    [10, 0, 10],
    [99, 0, 99],
    [100, 0, 100],
    [1000, 0, 420], // 50 - 1000/125 = 42%
    [5000, 0, 500], // 50 - 40 = 10%
    [6000, 0, 300], // 50 - 48 = 2% -> floor 5%
    [1000, 40, 400],
    [1000, 5, 100], // 50 nodes -> at least 100
    [1000, 100, 1000],
    [10, 40, 10],
    [15000, 0, 750],
  ];
  for (const [nodes, pct, want] of cases) assert.equal(numFeasibleNodesToFind(nodes, pct), want, `${nodes} nodes at ${pct}%`);
});

test('selectHost picks the maximum, ties by the injected randomness', () => {
  const draws: number[] = [];
  const ps = new PodScheduler(0, (n) => {
    draws.push(n);
    return 0;
  });
  const scores = [
    { name: 'a', score: 10 },
    { name: 'b', score: 30 },
    { name: 'c', score: 30 },
    { name: 'd', score: 5 },
  ];
  assert.equal(ps.selectHost(scores), 'c', 'random 0 replaces the candidate');
  assert.deepEqual(draws, [2]);
  assert.equal(new PodScheduler(0, () => 1).selectHost(scores), 'b');
});
