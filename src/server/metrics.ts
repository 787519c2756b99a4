/**
 * The API server's metrics (upstream's k8s.io/apiserver endpoints/metrics, storage and audit
 * metrics of the served release): names, types, labels, buckets and stability classes as
 * upstream registers them, in one registry per server, served at /metrics. Hot paths record
 * through children resolved once per label combination (filters/metrics.ts); the hooks below
 * are for the parts of the server that record one-off facts (a deprecated API was requested,
 * an audit event was generated).
 */
import { exponentialBuckets, type Metric, type MetricChild, MetricsRegistry, type MetricsSettings } from '../machinery/metrics.js';
import { registerProcessMetrics } from '../machinery/process-metrics.js';
import type { Response } from './http.js';
import { InFlightCounts } from './filters/max-in-flight.js';

/** Request latency buckets (upstream's, tuned for the API call latency SLO). */
const REQUEST_BUCKETS = [0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
/** Storage latency buckets (upstream's etcd_request_duration_seconds). */
const STORAGE_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

const REQUEST_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;
const RESOURCE_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

export interface ApiServerMetrics {
  registry: MetricsRegistry;
  requestTotal: Metric;
  requestDuration: Metric;
  responseSizes: Metric;
  currentInflightRequests: Metric;
  longrunningRequests: Metric;
  registeredWatchers: Metric;
  watchEventsTotal: Metric;
  storageObjects: Metric;
  etcdRequestDuration: Metric;
  requestedDeprecatedApis: Metric;
  droppedRequestsTotal: Metric;
}

/** Registers every API server metric in a new registry under these settings (flags). */
export function createApiServerMetrics(settings: MetricsSettings): ApiServerMetrics {
  const registry = new MetricsRegistry(settings);
  registerProcessMetrics(registry);
  return {
    registry,
    requestTotal: registry.counter({
      name: 'apiserver_request_total',
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      labels: [...REQUEST_LABELS, 'code'],
      stability: 'STABLE',
    }),
    requestDuration: registry.histogram({
      name: 'apiserver_request_duration_seconds',
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      labels: REQUEST_LABELS,
      buckets: REQUEST_BUCKETS,
      stability: 'STABLE',
    }),
    responseSizes: registry.histogram({
      name: 'apiserver_response_sizes',
      help: 'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
      labels: RESOURCE_LABELS,
      // 1 KB to 1 GB.
      buckets: exponentialBuckets(1000, 10, 7),
      stability: 'STABLE',
    }),
    currentInflightRequests: registry.gauge({
      name: 'apiserver_current_inflight_requests',
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      labels: ['request_kind'],
      stability: 'STABLE',
    }),
    longrunningRequests: registry.gauge({
      name: 'apiserver_longrunning_requests',
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      labels: RESOURCE_LABELS,
    }),
    registeredWatchers: registry.gauge({
      name: 'apiserver_registered_watchers',
      help: 'Number of currently registered watchers for a given resources',
      labels: ['group', 'version', 'kind'],
      // Hidden in the served release unless --show-hidden-metrics-for-version names the previous one.
      deprecatedVersion: '1.23.0',
    }),
    watchEventsTotal: registry.counter({
      name: 'apiserver_watch_events_total',
      help: 'Number of events sent in watch clients',
      labels: ['group', 'version', 'kind'],
    }),
    storageObjects: registry.gauge({
      name: 'apiserver_storage_objects',
      help: 'Number of stored objects at the time of last check split by kind.',
      labels: ['resource'],
      stability: 'STABLE',
    }),
    etcdRequestDuration: registry.histogram({
      name: 'etcd_request_duration_seconds',
      help: 'Etcd request latency in seconds for each operation and object type.',
      labels: ['operation', 'type'],
      buckets: STORAGE_BUCKETS,
    }),
    requestedDeprecatedApis: registry.gauge({
      name: 'apiserver_requested_deprecated_apis',
      help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      labels: ['group', 'version', 'resource', 'subresource', 'removed_release'],
      stability: 'STABLE',
    }),
    droppedRequestsTotal: registry.counter({
      name: 'apiserver_dropped_requests_total',
      help: "Number of requests dropped with 'Try again later' response",
      labels: ['request_kind'],
    }),
  };
}

/**
 * The in-flight limit's counts, reporting rejections (apiserver_dropped_requests_total) and at
 * each scrape the highest concurrency since the last (apiserver_current_inflight_requests).
 */
export function inFlightMetrics(metrics: ApiServerMetrics): InFlightCounts {
  const dropped = { readOnly: metrics.droppedRequestsTotal.child(['readOnly']), mutating: metrics.droppedRequestsTotal.child(['mutating']) };
  const counts = new InFlightCounts((kind) => dropped[kind].inc());
  const current = { readOnly: metrics.currentInflightRequests.child(['readOnly']), mutating: metrics.currentInflightRequests.child(['mutating']) };
  metrics.registry.onCollect(() => {
    const w = counts.watermarks();
    current.readOnly.set(w.readOnly);
    current.mutating.set(w.mutating);
  });
  return counts;
}

/** What a deprecated API request names (upstream's deprecation gauge labels). */
export interface DeprecatedRequest {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** The release the version is removed in (`1.26`), or '' when none is planned. */
  removedRelease: string;
}

/** Sets apiserver_requested_deprecated_apis for a request to a deprecated version (idempotent: the gauge is 1 once requested). */
export function markDeprecatedRequest(metrics: ApiServerMetrics, r: DeprecatedRequest): void {
  metrics.requestedDeprecatedApis.set([r.group, r.version, r.resource, r.subresource, r.removedRelease], 1);
}

// Watch responses whose written events are counted, by response (set by the metrics filter).
const watchEventCounters = new WeakMap<Response, MetricChild>();

/** Counts the events a watch response writes into child (apiserver_watch_events_total of its kind). */
export function countWatchEvents(res: Response, child: MetricChild): void {
  watchEventCounters.set(res, child);
}

/** The counter of a watch response's events, if its events are counted. */
export function watchEventCounter(res: Response): MetricChild | undefined {
  return watchEventCounters.get(res);
}
