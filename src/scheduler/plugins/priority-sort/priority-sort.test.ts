import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QueuedPodInfo } from '../../framework/interfaces.js';
import { PodInfo } from '../../framework/pod-info.js';
import { PrioritySort } from './priority-sort.js';

const q = (priority: number | undefined, timestamp: number): QueuedPodInfo => ({
  podInfo: new PodInfo({ metadata: { name: `p${priority}-${timestamp}`, namespace: 'ns' }, spec: { containers: [], priority } }),
  timestamp,
  attempts: 0,
  initialAttemptTimestamp: timestamp,
  unschedulablePlugins: new Set(),
});

test('PrioritySort.less', () => {
  const pl = new PrioritySort();
  const cases: [string, QueuedPodInfo, QueuedPodInfo, boolean][] = [
    ['p1.priority less than p2.priority', q(100, 1), q(200, 1), false],
    ['p1.priority greater than p2.priority', q(200, 1), q(100, 1), true],
    ['equal priority, p1 added earlier', q(100, 1), q(100, 2), true],
    ['equal priority, p1 added later', q(100, 2), q(100, 1), false],
    ['unset priority counts as 0', q(undefined, 1), q(-1, 1), true],
  ];
  for (const [name, a, b, want] of cases) assert.equal(pl.less(a, b), want, name);
});
