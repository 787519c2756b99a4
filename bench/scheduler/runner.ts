/**
 * Runs one workload on the simulator: nodes, then the init pods scheduled, then the measured
 * pods timed from creation until every one is bound. The fake clock is advanced past backoff
 * whenever the queue idles, so waiting costs no wall time. Heap deltas after a forced GC give
 * memory per node and per pod.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { KubeSchedulerConfiguration } from '../../src/scheduler/config/types.js';
import type { Registry } from '../../src/scheduler/framework/registry.js';
import { ORCH_NAMES } from '../../src/scheduler/framework/well-known.js';
import { createSimulation, type Simulation } from '../../src/scheduler/simulator/simulation.js';
import type { Workload } from './workloads.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Used heap after full collections, bytes. */
function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

export interface WorkloadResult {
  name: string;
  nodes: number;
  initPods: number;
  measurePods: number;
  scheduled: number;
  seconds: number;
  podsPerSecond: number;
  threshold: number | null;
  bytesPerNode: number;
  bytesPerPod: number;
  preempted: number;
  /** Pods still in the queue at the end (unschedulable ones included). */
  pending: number;
}

/** Schedules until isDone() or nothing more can happen; advances the clock over backoff. */
async function drive(sim: Simulation, isDone: () => boolean): Promise<void> {
  for (let guard = 0; guard < 10_000; guard++) {
    await sim.scheduler.runUntilIdle();
    if (isDone()) return;
    const next = sim.scheduler.queue.nextBackoffExpiry();
    if (next === undefined) return;
    sim.clock.advance(Math.max(1, next - sim.clock.now()));
  }
}

/** Builds the simulation, runs the workload, and tears nothing down (the caller drops it). */
export async function runWorkload(w: Workload, registry: Registry, config: KubeSchedulerConfiguration | undefined, scale: number): Promise<WorkloadResult> {
  const names = ORCH_NAMES;
  const nodes = Math.max(1, Math.round(w.nodes * scale));
  const initPods = Math.round(w.initPods * scale);
  const measurePods = Math.max(1, Math.round(w.measurePods * scale));
  const h0 = heapUsed();
  const sim = createSimulation({ registry, config, seed: 42 });
  for (let i = 0; i < nodes; i++) sim.cluster.addNode(w.node(i, names));
  const h1 = heapUsed();

  let bound = 0;
  sim.cluster.pods.subscribe({
    add: () => {},
    update: (o, n) => {
      if (!o.spec.nodeName && n.spec.nodeName) bound++;
    },
    delete: () => {},
  });
  for (let i = 0; i < initPods; i++) sim.cluster.addPod(w.initPod(i, names));
  await drive(sim, () => bound >= initPods);
  sim.cluster.events.length = 0;
  sim.cluster.bindings.length = 0;

  const boundBefore = bound;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < measurePods; i++) sim.cluster.addPod(w.measurePod(i, names));
  await drive(sim, () => bound - boundBefore >= measurePods);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const scheduled = bound - boundBefore;
  const preempted = sim.cluster.events.filter((e) => e.reason === 'Preempted').length;
  const h3 = heapUsed();
  // Read after the last heap sample so the simulation is still reachable when it is taken.
  const q = sim.scheduler.queue.lengths();
  return {
    name: w.name,
    nodes,
    initPods,
    measurePods,
    scheduled,
    seconds,
    podsPerSecond: scheduled / seconds,
    threshold: w.threshold,
    bytesPerNode: (h1 - h0) / nodes,
    // Init and measured pods both live in the store, cache and snapshot: average over all of them.
    bytesPerPod: (h3 - h1) / Math.max(1, initPods + measurePods),
    preempted,
    pending: q.active + q.backoff + q.unschedulable,
  };
}
