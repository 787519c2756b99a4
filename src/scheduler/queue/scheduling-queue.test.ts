import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../framework/clock.js';
import { ActionType, NODE_ADD } from '../framework/events.js';
import type { QueuedPodInfo } from '../framework/interfaces.js';
import type { Pod } from '../framework/types.js';
import { PrioritySort } from '../plugins/priority-sort/priority-sort.js';
import { SchedulingQueue } from './scheduling-queue.js';

const pod = (name: string, priority = 0, extra: Partial<Pod['spec']> = {}): Pod => ({
  metadata: { name, namespace: 'ns', uid: name },
  spec: { containers: [], priority, ...extra },
});
const sort = new PrioritySort();
const newQueue = (clock: FakeClock, pluginEvents?: Map<string, { resource: 'Node'; actionType: number; label: string }[]>) =>
  new SchedulingQueue({ clock, less: (a, b) => sort.less(a, b), pluginEvents });
const fail = (q: SchedulingQueue, qpi: QueuedPodInfo, plugins: string[] = []) => {
  qpi.unschedulablePlugins = new Set(plugins);
  q.addUnschedulableIfNotPresent(qpi, q.schedulingCycle);
};

test('activeQ pops by priority, then arrival', () => {
  const clock = new FakeClock();
  const q = newQueue(clock);
  q.add(pod('low', 1));
  clock.advance(1);
  q.add(pod('high', 10));
  clock.advance(1);
  q.add(pod('low2', 1));
  assert.deepEqual(
    [q.pop(), q.pop(), q.pop()].map((x) => x?.podInfo.key),
    ['ns/high', 'ns/low', 'ns/low2'],
  );
  assert.equal(q.pop(), undefined);
});

test('backoff doubles from 1s to a 10s cap', () => {
  const q = newQueue(new FakeClock());
  const qpi = { attempts: 0 } as QueuedPodInfo;
  const got = [1, 2, 3, 4, 5, 6].map((a) => q.backoffDuration({ ...qpi, attempts: a }));
  assert.deepEqual(got, [1000, 2000, 4000, 8000, 10000, 10000]);
});

test('unschedulable pods move on a registered event, into backoff first', () => {
  const clock = new FakeClock();
  const q = newQueue(clock, new Map([['NodeResourcesFit', [{ resource: 'Node', actionType: ActionType.Add, label: 'NodeAdd' }]]]));
  q.add(pod('a'));
  const a = q.pop()!;
  fail(q, a, ['NodeResourcesFit']);
  assert.deepEqual(q.lengths(), { active: 0, backoff: 0, unschedulable: 1 });
  q.moveAllToActiveOrBackoffQueue({ resource: 'Pod', actionType: ActionType.Delete, label: 'PodDelete' });
  assert.equal(q.lengths().unschedulable, 1, 'an event the plugin did not register leaves it');
  q.moveAllToActiveOrBackoffQueue(NODE_ADD);
  assert.deepEqual(q.lengths(), { active: 0, backoff: 1, unschedulable: 0 });
  clock.advance(999);
  assert.equal(q.pop(), undefined, 'still backing off after 999ms');
  clock.advance(1);
  assert.equal(q.pop()?.podInfo.key, 'ns/a');
});

test('a pod failing in a cycle with a move request goes to backoff, not unschedulable', () => {
  const clock = new FakeClock();
  const q = newQueue(clock);
  q.add(pod('a'));
  const a = q.pop()!;
  const cycle = q.schedulingCycle;
  q.moveAllToActiveOrBackoffQueue(NODE_ADD);
  q.addUnschedulableIfNotPresent(a, cycle);
  assert.deepEqual(q.lengths(), { active: 0, backoff: 1, unschedulable: 0 });
});

test('unschedulable pods are retried after 5 minutes', () => {
  const clock = new FakeClock();
  const q = newQueue(clock);
  q.add(pod('a'));
  fail(q, q.pop()!, ['X']);
  clock.advance(5 * 60 * 1000);
  assert.equal(q.pop(), undefined);
  clock.advance(1);
  assert.equal(q.pop()?.podInfo.key, 'ns/a');
});

test('update with a spec change retries an unschedulable pod; status-only update does not', () => {
  const clock = new FakeClock();
  const q = newQueue(clock);
  const p = pod('a');
  q.add(p);
  fail(q, q.pop()!, ['X']);
  clock.advance(20_000);
  q.update(p, { ...p, status: { phase: 'Pending' } });
  assert.equal(q.lengths().unschedulable, 1);
  q.update(p, { ...p, metadata: { ...p.metadata, labels: { x: 'y' } } });
  assert.equal(q.pop()?.podInfo.pod.metadata.labels?.x, 'y');
});

test('assigned pod add moves only pods whose required affinity it matches', () => {
  const q = newQueue(new FakeClock());
  const affinity = {
    podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'zone' }] },
  };
  q.add(pod('wants-db', 0, { affinity }));
  q.add(pod('plain'));
  fail(q, q.pop()!, ['InterPodAffinity']);
  fail(q, q.pop()!, ['NodeResourcesFit']);
  const ev = { resource: 'Pod' as const, actionType: ActionType.Add, label: 'AssignedPodAdd' };
  q.assignedPodAddedOrUpdated({ metadata: { name: 'web', namespace: 'ns', labels: { app: 'web' } }, spec: { containers: [], nodeName: 'n' } }, ev);
  assert.equal(q.lengths().unschedulable, 2);
  q.assignedPodAddedOrUpdated({ metadata: { name: 'db', namespace: 'ns', labels: { app: 'db' } }, spec: { containers: [], nodeName: 'n' } }, ev);
  assert.equal(q.lengths().unschedulable, 1);
});

test('nominated pods are listed per node and cleared on delete', () => {
  const q = newQueue(new FakeClock());
  const p = { ...pod('a'), status: { nominatedNodeName: 'n1' } };
  q.add(p);
  assert.deepEqual(
    q.nominator.nominatedPodsForNode('n1').map((x) => x.key),
    ['ns/a'],
  );
  q.delete(p);
  assert.equal(q.nominator.nominatedPodsForNode('n1').length, 0);
});
