import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MetricsRegistry } from '../machinery/metrics.js';
import type { Node, Pod } from './framework/types.js';
import { MetricsRecorder } from './metric-recorder.js';
import { registerSchedulerMetrics, SCHEDULER_RELEASE } from './metrics.js';
import { IN_TREE_REGISTRY } from './plugins/registry.js';
import { createSimulation } from './simulator/simulation.js';

const node = (name: string, cpu: string): Node => ({ metadata: { name }, status: { allocatable: { cpu, memory: '16Gi', pods: '110' } } });
const pod = (name: string, cpu: string): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu } } }] },
});

/** One sample's value from an exposition (labels as the text format sorts them); 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

function setup() {
  const registry = new MetricsRegistry({ currentVersion: SCHEDULER_RELEASE });
  const sim = createSimulation({ registry: IN_TREE_REGISTRY, recorder: new MetricsRecorder(registerSchedulerMetrics(registry)) });
  registry.onCollect(() => sim.scheduler.sampleMetrics());
  return { registry, sim };
}

const P = 'profile="default-scheduler"';

test('a scheduled and an unschedulable pod: attempts by result, durations, queues and cache as upstream records them', async () => {
  const { registry, sim } = setup();
  sim.cluster.addNode(node('a', '4'));
  sim.cluster.addNode(node('b', '4'));
  for (const p of [pod('small-0', '1'), pod('small-1', '1'), pod('huge', '64')]) sim.cluster.addPod(p);
  await sim.scheduler.runUntilIdle();
  const t = registry.expose();
  assert.equal(sample(t, `scheduler_schedule_attempts_total{${P},result="scheduled"}`), 2);
  assert.equal(sample(t, `scheduler_schedule_attempts_total{${P},result="unschedulable"}`), 1);
  assert.equal(sample(t, `scheduler_schedule_attempts_total{${P},result="error"}`), 0);
  assert.equal(sample(t, `scheduler_e2e_scheduling_duration_seconds_count{${P},result="scheduled"}`), 2);
  assert.equal(sample(t, `scheduler_e2e_scheduling_duration_seconds_count{${P},result="unschedulable"}`), 1);
  // The algorithm is timed only when it finds a node; binding once per bound pod.
  assert.equal(sample(t, 'scheduler_scheduling_algorithm_duration_seconds_count'), 2);
  assert.equal(sample(t, 'scheduler_binding_duration_seconds_count'), 2);
  assert.equal(sample(t, 'scheduler_pod_scheduling_attempts_count'), 2);
  assert.equal(sample(t, 'scheduler_pod_scheduling_attempts_sum'), 2);
  assert.equal(sample(t, 'scheduler_pod_scheduling_duration_seconds_count{attempts="1"}'), 2);
  assert.equal(sample(t, 'scheduler_queue_incoming_pods_total{event="PodAdd",queue="active"}'), 3);
  assert.equal(sample(t, 'scheduler_queue_incoming_pods_total{event="ScheduleAttemptFailure",queue="unschedulable"}'), 1);
  assert.equal(sample(t, 'scheduler_pending_pods{queue="unschedulable"}'), 1);
  assert.equal(sample(t, 'scheduler_pending_pods{queue="active"}'), 0);
  assert.equal(sample(t, 'scheduler_pending_pods{queue="backoff"}'), 0);
  assert.equal(sample(t, 'scheduler_scheduler_cache_size{type="nodes"}'), 2);
  assert.equal(sample(t, 'scheduler_scheduler_cache_size{type="pods"}'), 2);
  assert.equal(sample(t, 'scheduler_scheduler_goroutines{work="binding"}'), 0);
  // DefaultPreemption ran for the huge pod and found no victims.
  assert.equal(sample(t, 'scheduler_preemption_attempts_total'), 1);
  assert.equal(sample(t, 'scheduler_preemption_victims_count'), 0);
  assert.equal(sample(t, `scheduler_framework_extension_point_duration_seconds_count{extension_point="PreFilter",${P},status="Success"}`), 3);
  assert.equal(sample(t, `scheduler_framework_extension_point_duration_seconds_count{extension_point="PostFilter",${P},status="Unschedulable"}`), 1);
  assert.equal(sample(t, `scheduler_framework_extension_point_duration_seconds_count{extension_point="Bind",${P},status="Success"}`), 2);
  assert.equal(sample(t, `scheduler_framework_extension_point_duration_seconds_count{extension_point="Reserve",${P},status="Success"}`), 2);
});

test('a node added moves the unschedulable pod through backoff; bound at its second attempt, a second after it was queued', async () => {
  const { registry, sim } = setup();
  sim.cluster.addNode(node('a', '4'));
  sim.cluster.addPod(pod('huge', '64'));
  await sim.scheduler.runUntilIdle();
  sim.cluster.addNode(node('big', '100'));
  let t = registry.expose();
  // Still inside its 1 s backoff, so NodeAdd moves it to backoffQ.
  assert.equal(sample(t, 'scheduler_queue_incoming_pods_total{event="NodeAdd",queue="backoff"}'), 1);
  assert.equal(sample(t, 'scheduler_pending_pods{queue="backoff"}'), 1);
  sim.clock.advance(1000);
  await sim.scheduler.runUntilIdle();
  t = registry.expose();
  assert.equal(sample(t, 'scheduler_queue_incoming_pods_total{event="BackoffComplete",queue="active"}'), 1);
  assert.equal(sample(t, `scheduler_schedule_attempts_total{${P},result="scheduled"}`), 1);
  assert.equal(sample(t, 'scheduler_pod_scheduling_attempts_sum'), 2);
  assert.equal(sample(t, 'scheduler_pod_scheduling_attempts_bucket{le="2"}'), 1);
  assert.equal(sample(t, 'scheduler_pod_scheduling_attempts_bucket{le="1"}'), 0);
  assert.equal(sample(t, 'scheduler_pod_scheduling_duration_seconds_count{attempts="2"}'), 1);
  assert.equal(sample(t, 'scheduler_pod_scheduling_duration_seconds_sum{attempts="2"}'), 1);
  assert.equal(sample(t, 'scheduler_pending_pods{queue="backoff"}'), 0);
});

test('without a recorder the scheduler records nothing and still schedules', async () => {
  const sim = createSimulation({ registry: IN_TREE_REGISTRY });
  sim.cluster.addNode(node('a', '4'));
  sim.cluster.addPod(pod('p', '1'));
  await sim.scheduler.runUntilIdle();
  assert.equal(sim.cluster.pods.get('p', 'default')?.spec.nodeName, 'a');
});
