import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../framework/clock.js';
import { Snapshot } from '../framework/snapshot.js';
import type { Node, Pod } from '../framework/types.js';
import { ORCH_NAMES } from '../framework/well-known.js';
import { SchedulerCache } from './cache.js';

const node = (name: string, zone?: string): Node => ({
  metadata: { name, labels: zone ? { [ORCH_NAMES.zoneLabel]: zone } : {} },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
});
const pod = (name: string, nodeName: string, cpu = '1'): Pod => ({
  metadata: { name, namespace: 'ns', uid: name },
  spec: { nodeName, containers: [{ name: 'c', resources: { requests: { cpu } } }] },
});

test('assume, confirm and forget keep requested resources right', () => {
  const clock = new FakeClock();
  const c = new SchedulerCache(clock, ORCH_NAMES);
  c.addNode(node('n1'));
  const s = new Snapshot();
  c.assumePod(pod('a', 'n1'));
  c.updateSnapshot(s);
  assert.equal(s.get('n1')?.requested.milliCPU, 1000);
  c.forgetPod(pod('a', 'n1'));
  c.updateSnapshot(s);
  assert.equal(s.get('n1')?.requested.milliCPU, 0);
  c.assumePod(pod('b', 'n1'));
  c.finishBinding(pod('b', 'n1'));
  c.addPod(pod('b', 'n1'));
  assert.equal(c.isAssumedPod(pod('b', 'n1')), false, 'confirmed by the informer');
  clock.advance(16 * 60 * 1000);
  c.cleanupAssumedPods();
  c.updateSnapshot(s);
  assert.equal(s.get('n1')?.pods.length, 1, 'confirmed pods never expire');
});

test('assumed pods expire after the TTL once binding finished', () => {
  const clock = new FakeClock();
  const c = new SchedulerCache(clock, ORCH_NAMES, 1000);
  c.addNode(node('n1'));
  c.assumePod(pod('a', 'n1'));
  c.finishBinding(pod('a', 'n1'));
  clock.advance(999);
  c.cleanupAssumedPods();
  assert.equal(c.podCount(), 1);
  clock.advance(1);
  c.cleanupAssumedPods();
  assert.equal(c.podCount(), 0);
});

test('updateSnapshot copies only changed nodes and keeps list identity', () => {
  const c = new SchedulerCache(new FakeClock(), ORCH_NAMES);
  c.addNode(node('n1'));
  c.addNode(node('n2'));
  const s = new Snapshot();
  c.updateSnapshot(s);
  const n1 = s.get('n1');
  const n2 = s.get('n2');
  c.addPod(pod('a', 'n1'));
  c.updateSnapshot(s);
  assert.equal(s.get('n1'), n1, 'same object, updated in place');
  assert.equal(s.get('n1')?.pods.length, 1);
  assert.equal(s.get('n2'), n2);
  c.removeNode(node('n2'));
  c.updateSnapshot(s);
  assert.deepEqual(
    s.list().map((n) => n.name),
    ['n1'],
  );
});

test('snapshot interleaves zones and tracks affinity nodes', () => {
  const c = new SchedulerCache(new FakeClock(), ORCH_NAMES);
  for (const [n, z] of [
    ['a1', 'a'],
    ['a2', 'a'],
    ['b1', 'b'],
    ['b2', 'b'],
  ])
    c.addNode(node(n, z));
  const s = new Snapshot();
  const withAffinity: Pod = {
    ...pod('x', 'b2'),
    spec: { ...pod('x', 'b2').spec, affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'k' }] } } },
  };
  c.addPod(withAffinity);
  c.updateSnapshot(s);
  assert.deepEqual(
    s.list().map((n) => n.name),
    ['a1', 'b1', 'a2', 'b2'],
  );
  assert.deepEqual(
    s.havePodsWithRequiredAntiAffinityList().map((n) => n.name),
    ['b2'],
  );
  c.removePod(withAffinity);
  c.updateSnapshot(s);
  assert.equal(s.havePodsWithAffinityList().length, 0);
});
