/**
 * The seam between `orch-scheduler`'s command (flags, configuration, serving) and the scheduler
 * runtime (informers, leader election, binding) built in src/scheduler/process/. The command
 * calls `startScheduler` once its configuration is complete and its ports serve.
 * The runtime talks to the API server only through src/client/, with the kubeconfig's client
 * certificate, as a separate process of upstream's does.
 */
import type { Brand } from '../machinery/brand.js';
import type { CompletedConfiguration } from '../scheduler/config/complete.js';
import type { KubeSchedulerConfiguration } from '../scheduler/config/types.js';
import type { SchedulerMetrics } from '../scheduler/metrics.js';
import { MetricsRecorder } from '../scheduler/metric-recorder.js';
import type { MetricsRegistry } from '../machinery/metrics.js';
import { RestClient } from '../client/rest-client.js';
import { readKubeconfig } from '../pki/kubeconfig-read.js';
import { parseDuration } from '../machinery/duration.js';
import { klog } from '../machinery/klog.js';
import { type ResourceLockType, startScheduler as startRuntime } from '../scheduler/process/start-scheduler.js';

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
  /** The registry serving `metrics`: gauges of the queue and cache are sampled when it is scraped. */
  registry: MetricsRegistry;
  featureGates: Record<string, boolean>;
}

export interface RunningScheduler {
  stop(): Promise<void>;
  /** Leader election healthy (upstream's leaderElection healthz check). */
  healthy(): boolean;
  isLeader(): boolean;
}

export type StartScheduler = (opts: StartSchedulerOptions) => Promise<RunningScheduler>;

/** Upstream exits when it loses the lease, so a supervisor restarts it as a follower. */
const EXIT_ON_LOST_LEASE = 1;

/** The runtime's entry: a client from the kubeconfig, leader election as configured, then scheduling. */
export const startScheduler: StartScheduler | undefined = async (o) => {
  if (!o.client.kubeconfig) throw new Error('orch-scheduler needs --kubeconfig (or clientConnection.kubeconfig) naming the API server and its credentials');
  const conn = readKubeconfig(o.client.kubeconfig);
  if (!conn.caPem || !conn.certPem || !conn.keyPem)
    throw new Error(`${o.client.kubeconfig}: the scheduler authenticates with a client certificate (client-certificate-data and client-key-data)`);
  const client = new RestClient({
    server: o.client.master || conn.server,
    caPem: conn.caPem,
    certPem: conn.certPem,
    keyPem: conn.keyPem,
    userAgent: o.client.userAgent,
    qps: o.client.qps,
    burst: o.client.burst,
    contentType: o.client.contentType,
    acceptContentTypes: o.client.acceptContentTypes || undefined,
  });
  const le = o.config.leaderElection;
  const running = startRuntime({
    recorder: new MetricsRecorder(o.metrics),
    client,
    brand: o.brand,
    config: o.configuration,
    leaderElection: le.leaderElect
      ? {
          leaseDurationMs: parseDuration(le.leaseDuration),
          renewDeadlineMs: parseDuration(le.renewDeadline),
          retryPeriodMs: parseDuration(le.retryPeriod),
          resourceLock: le.resourceLock as ResourceLockType,
          resourceName: le.resourceName,
          resourceNamespace: le.resourceNamespace,
        }
      : undefined,
    onLeadershipLost: () => {
      klog.error(undefined, 'leaderelection lost');
      process.exit(EXIT_ON_LOST_LEASE);
    },
    log: (level, message) => (level === 'error' ? klog.error(undefined, message) : klog.info(message)),
  });
  // client-go's leader_election_master_status{name}: set once this process leads (a follower has no series).
  const master = o.metrics.leaderElectionMasterStatus.child([le.resourceName]);
  o.registry.onCollect(() => {
    running.scheduler.sampleMetrics();
    if (le.leaderElect && running.isLeader()) master.set(1);
  });
  return {
    async stop() {
      await running.stop();
      client.close();
    },
    healthy: () => running.leaderElectionHealth() === undefined,
    isLeader: () => running.isLeader(),
  };
};
