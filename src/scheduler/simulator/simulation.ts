/** A simulated cluster with a scheduler attached: the harness for scenario tests and benchmarks. */
import type { SchedulerRecorder } from '../metric-recorder.js';
import { eventHandlersFor } from '../event-handlers.js';
import { FakeClock, seededRandomInt } from '../framework/clock.js';
import type { Registry } from '../framework/registry.js';
import type { KubeSchedulerConfiguration } from '../config/types.js';
import { Scheduler } from '../scheduler.js';
import { SimulatedCluster } from './cluster.js';

export interface SimulationOptions {
  registry: Registry;
  config?: KubeSchedulerConfiguration;
  /** Seed of the tie-breaking randomness. */
  seed?: number;
  clock?: FakeClock;
  /** Where the scheduler records metrics; default nothing (benchmarks pay for none). */
  recorder?: SchedulerRecorder;
}

export interface Simulation {
  clock: FakeClock;
  cluster: SimulatedCluster;
  scheduler: Scheduler;
}

/** Builds cluster and scheduler and connects them; objects may be added before or after. */
export function createSimulation(opts: SimulationOptions): Simulation {
  const clock = opts.clock ?? new FakeClock();
  const cluster = new SimulatedCluster(clock);
  const scheduler = new Scheduler({
    config: opts.config,
    registry: opts.registry,
    listers: cluster,
    binder: cluster,
    client: cluster,
    eventRecorder: cluster,
    clock,
    random: seededRandomInt(opts.seed ?? 1),
    recorder: opts.recorder,
  });
  cluster.connect(eventHandlersFor(scheduler));
  return { clock, cluster, scheduler };
}
