/**
 * The scheduler's metrics, as Kubernetes 1.21's pkg/scheduler/metrics registers them (names,
 * types, labels, buckets and help texts; all ALPHA; the three deprecated in 1.19 are hidden
 * unless --show-hidden-metrics-for-version asks for them), plus the leader-election gauge
 * client-go adds. The runtime updates these objects; the serving layer exposes the registry.
 */
import { exponentialBuckets, linearBuckets, type Metric, type MetricsRegistry } from '../machinery/metrics.js';

export interface SchedulerMetrics {
  scheduleAttempts: Metric;
  e2eSchedulingDuration: Metric;
  schedulingAlgorithmDuration: Metric;
  preemptionEvaluationDuration: Metric;
  bindingDuration: Metric;
  preemptionVictims: Metric;
  preemptionAttempts: Metric;
  pendingPods: Metric;
  goroutines: Metric;
  podSchedulingDuration: Metric;
  podSchedulingAttempts: Metric;
  frameworkExtensionPointDuration: Metric;
  pluginExecutionDuration: Metric;
  queueIncomingPods: Metric;
  permitWaitDuration: Metric;
  cacheSize: Metric;
  schedulingDuration: Metric;
  predicateEvaluation: Metric;
  priorityEvaluation: Metric;
  leaderElectionMasterStatus: Metric;
}

/** The scheduler's release: the deprecation of its metrics is reckoned against it. */
export const SCHEDULER_RELEASE = { major: 1, minor: 21 };

const latency = exponentialBuckets(0.001, 2, 15);

/** Registers the scheduler's metrics in registry. */
export function registerSchedulerMetrics(r: MetricsRegistry): SchedulerMetrics {
  const s = 'scheduler_';
  return {
    scheduleAttempts: r.counter({
      name: `${s}schedule_attempts_total`,
      help: "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
      labels: ['result', 'profile'],
    }),
    e2eSchedulingDuration: r.histogram({
      name: `${s}e2e_scheduling_duration_seconds`,
      help: 'E2e scheduling latency in seconds (scheduling algorithm + binding)',
      labels: ['result', 'profile'],
      buckets: latency,
    }),
    schedulingAlgorithmDuration: r.histogram({
      name: `${s}scheduling_algorithm_duration_seconds`,
      help: 'Scheduling algorithm latency in seconds',
      buckets: latency,
    }),
    preemptionEvaluationDuration: r.histogram({
      name: `${s}scheduling_algorithm_preemption_evaluation_seconds`,
      help: 'Scheduling algorithm preemption evaluation duration in seconds',
      buckets: latency,
    }),
    bindingDuration: r.histogram({ name: `${s}binding_duration_seconds`, help: 'Binding latency in seconds', buckets: latency }),
    preemptionVictims: r.histogram({ name: `${s}preemption_victims`, help: 'Number of selected preemption victims', buckets: linearBuckets(5, 5, 10) }),
    preemptionAttempts: r.counter({ name: `${s}preemption_attempts_total`, help: 'Total preemption attempts in the cluster till now' }),
    pendingPods: r.gauge({
      name: `${s}pending_pods`,
      help: "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulableQ.",
      labels: ['queue'],
    }),
    goroutines: r.gauge({
      name: `${s}scheduler_goroutines`,
      help: 'Number of running goroutines split by the work they do such as binding.',
      labels: ['work'],
    }),
    podSchedulingDuration: r.histogram({
      name: `${s}pod_scheduling_duration_seconds`,
      help: 'E2e latency for a pod being scheduled which may include multiple scheduling attempts.',
      labels: ['attempts'],
      buckets: exponentialBuckets(0.01, 2, 20),
    }),
    podSchedulingAttempts: r.histogram({
      name: `${s}pod_scheduling_attempts`,
      help: 'Number of attempts to successfully schedule a pod.',
      buckets: exponentialBuckets(1, 2, 5),
    }),
    frameworkExtensionPointDuration: r.histogram({
      name: `${s}framework_extension_point_duration_seconds`,
      help: 'Latency for running all plugins of a specific extension point.',
      labels: ['extension_point', 'status', 'profile'],
      buckets: exponentialBuckets(0.0001, 2, 12),
    }),
    pluginExecutionDuration: r.histogram({
      name: `${s}plugin_execution_duration_seconds`,
      help: 'Duration for running a plugin at a specific extension point.',
      labels: ['plugin', 'extension_point', 'status'],
      buckets: exponentialBuckets(0.00001, 1.5, 20),
    }),
    queueIncomingPods: r.counter({
      name: `${s}queue_incoming_pods_total`,
      help: 'Number of pods added to scheduling queues by event and queue type.',
      labels: ['queue', 'event'],
    }),
    permitWaitDuration: r.histogram({
      name: `${s}permit_wait_duration_seconds`,
      help: 'Duration of waiting on permit.',
      labels: ['result'],
      buckets: latency,
    }),
    cacheSize: r.gauge({
      name: `${s}scheduler_cache_size`,
      help: 'Number of nodes, pods, and assumed (bound) pods in the scheduler cache.',
      labels: ['type'],
    }),
    schedulingDuration: r.summary({
      name: `${s}scheduling_duration_seconds`,
      help: 'Scheduling latency in seconds split by sub-parts of the scheduling operation',
      labels: ['operation'],
      deprecatedVersion: '1.19.0',
    }),
    predicateEvaluation: r.histogram({
      name: `${s}scheduling_algorithm_predicate_evaluation_seconds`,
      help: 'Scheduling algorithm predicate evaluation duration in seconds',
      buckets: latency,
      deprecatedVersion: '1.19.0',
    }),
    priorityEvaluation: r.histogram({
      name: `${s}scheduling_algorithm_priority_evaluation_seconds`,
      help: 'Scheduling algorithm priority evaluation duration in seconds',
      buckets: latency,
      deprecatedVersion: '1.19.0',
    }),
    leaderElectionMasterStatus: r.gauge({
      name: 'leader_election_master_status',
      help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      labels: ['name'],
    }),
  };
}
