/**
 * API Priority and Fairness metrics under upstream's names, help texts, labels and buckets
 * (k8s.io/apiserver/pkg/util/flowcontrol/metrics of the served release, all ALPHA there).
 * Children are resolved once per (priority level, flow schema) pair and kept, so a request
 * records through ready children.
 */
import type { Metric, MetricChild, MetricsRegistry } from '../../machinery/metrics.js';

/** Upstream's requestDurationSecondsBuckets. */
const REQUEST_DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30];

export interface FlowControlMetrics {
  rejected: Metric;
  dispatched: Metric;
  inQueue: Metric;
  executing: Metric;
  waitDuration: Metric;
  concurrencyLimit: Metric;
}

/** What one (priority level, flow schema) pair records into. */
export interface FlowMetrics {
  dispatched: MetricChild;
  inQueue: MetricChild;
  executing: MetricChild;
  waitExecuted: MetricChild;
  waitRejected: MetricChild;
  rejected(reason: string): void;
}

export function registerFlowControlMetrics(registry: MetricsRegistry): FlowControlMetrics {
  const labels = ['priority_level', 'flow_schema'];
  return {
    rejected: registry.counter({
      name: 'apiserver_flowcontrol_rejected_requests_total',
      help: 'Number of requests rejected by API Priority and Fairness subsystem',
      labels: [...labels, 'reason'],
    }),
    dispatched: registry.counter({
      name: 'apiserver_flowcontrol_dispatched_requests_total',
      help: 'Number of requests executed by API Priority and Fairness subsystem',
      labels,
    }),
    inQueue: registry.gauge({
      name: 'apiserver_flowcontrol_current_inqueue_requests',
      help: 'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
      labels,
    }),
    executing: registry.gauge({
      name: 'apiserver_flowcontrol_current_executing_requests',
      help: 'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
      labels,
    }),
    waitDuration: registry.histogram({
      name: 'apiserver_flowcontrol_request_wait_duration_seconds',
      help: 'Length of time a request spent waiting in its queue',
      labels: [...labels, 'execute'],
      buckets: REQUEST_DURATION_BUCKETS,
    }),
    concurrencyLimit: registry.gauge({
      name: 'apiserver_flowcontrol_request_concurrency_limit',
      help: 'Shared concurrency limit in the API Priority and Fairness subsystem',
      labels: ['priority_level'],
    }),
  };
}

/** The children of one pair. */
export function flowMetrics(m: FlowControlMetrics, priorityLevel: string, flowSchema: string): FlowMetrics {
  return {
    dispatched: m.dispatched.child([priorityLevel, flowSchema]),
    inQueue: m.inQueue.child([priorityLevel, flowSchema]),
    executing: m.executing.child([priorityLevel, flowSchema]),
    waitExecuted: m.waitDuration.child([priorityLevel, flowSchema, 'true']),
    waitRejected: m.waitDuration.child([priorityLevel, flowSchema, 'false']),
    rejected: (reason) => m.rejected.inc([priorityLevel, flowSchema, reason]),
  };
}
