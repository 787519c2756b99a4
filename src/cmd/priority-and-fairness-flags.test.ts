import assert from 'node:assert/strict';
import { test } from 'node:test';
import { apiServerCommand } from './flags.js';

const parse = (args: string[]) =>
  apiServerCommand('orch', 'test')
    .parse(['node', 'orch', ...args])
    .opts<{ enablePriorityAndFairness: boolean; maxRequestsInflight: number; maxMutatingRequestsInflight: number }>();

test("--enable-priority-and-fairness: on by default, upstream's bool forms turn it off", () => {
  assert.equal(parse([]).enablePriorityAndFairness, true);
  assert.equal(parse(['--enable-priority-and-fairness=false']).enablePriorityAndFairness, false);
  assert.equal(parse(['--enable-priority-and-fairness']).enablePriorityAndFairness, true);
  assert.equal(parse([]).maxRequestsInflight + parse([]).maxMutatingRequestsInflight, 600);
});
