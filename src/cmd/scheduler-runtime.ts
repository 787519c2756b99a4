/**
 * The seam between `orch-scheduler`'s command (flags, configuration, serving) and the scheduler
 * runtime (informers, leader election, binding) built in src/scheduler/process/. The command
 * calls `startScheduler` once its configuration is complete and its ports serve.
 *
 * TODO(lead, issue 14): point `startScheduler` at the runtime's entry from
 * src/scheduler/process/ when merging; until then the command serves its ports and says that
 * this build cannot schedule.
 */
import type { Brand } from '../machinery/brand.js';
import type { CompletedConfiguration } from '../scheduler/config/complete.js';
import type { KubeSchedulerConfiguration } from '../scheduler/config/types.js';
import type { SchedulerMetrics } from '../scheduler/metrics.js';

/** How the runtime reaches the API server (clientConnection plus --master). */
export interface SchedulerClientOptions {
  kubeconfig: string;
  /** Overrides the kubeconfig's server. */
  master?: string;
  qps: number;
  burst: number;
  contentType: string;
  acceptContentTypes: string;
  userAgent: string;
}

export interface StartSchedulerOptions {
  /** The effective configuration (profiles completed, leader election settings, backoffs...). */
  config: CompletedConfiguration;
  /** The same as the library's KubeSchedulerConfiguration input. */
  configuration: KubeSchedulerConfiguration;
  client: SchedulerClientOptions;
  brand: Brand;
  metrics: SchedulerMetrics;
  featureGates: Record<string, boolean>;
}

export interface RunningScheduler {
  stop(): Promise<void>;
  /** Leader election healthy (upstream's leaderElection healthz check). */
  healthy(): boolean;
  isLeader(): boolean;
}

export type StartScheduler = (opts: StartSchedulerOptions) => Promise<RunningScheduler>;

/** The runtime's entry; undefined until the lead connects src/scheduler/process/ (see above). */
export const startScheduler: StartScheduler | undefined = undefined;
