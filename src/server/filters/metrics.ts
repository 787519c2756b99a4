/**
 * Request metrics (upstream's InstrumentRouteFunc and RecordLongRunning), after authorization
 * as upstream instruments its routes: apiserver_request_total, _request_duration_seconds,
 * _response_sizes (GET and LIST), _longrunning_requests, and for watches _registered_watchers
 * and the counter of the events the watch writes. Off the hot path: the children of each
 * (verb, dry run, group, version, resource, subresource, scope) are resolved once, on its first
 * request, and found again through nested maps; a request then updates a few numbers. Only
 * resources the registry serves get children, so paths a client invents cannot grow the table.
 */
import type { MetricChild } from '../../machinery/metrics.js';
import { StatusError } from '../../machinery/status.js';
import type { Registry } from '../../registry/registry.js';
import { bodySize, type Response } from '../http.js';
import { type ApiServerMetrics, countWatchEvents } from '../metrics.js';
import type { RequestInfo } from '../request-info.js';
import type { Filter, RequestState } from './chain.js';
import { isLongRunning } from './long-running.js';

const COMPONENT = 'apiserver';
const APPLY_PATCH = 'application/apply-patch+yaml';

interface RouteMetrics {
  /** Label values of apiserver_request_total before `code`. */
  readonly labels: readonly string[];
  readonly codes: Map<number, MetricChild>;
  readonly duration: MetricChild;
  readonly size: MetricChild | undefined;
  readonly longRunning: MetricChild | undefined;
  readonly watchers: MetricChild | undefined;
  readonly watchEvents: MetricChild | undefined;
}

// verb → dry run → group → version → resource → subresource → scope → the route's children.
type Level<T> = Map<string, T>;
type Tree = Level<Level<Level<Level<Level<Level<Level<RouteMetrics>>>>>>>;

/** The metrics filter; serverSideApply decides whether apply patches count as APPLY (as upstream). */
export function withRequestMetrics(metrics: ApiServerMetrics, registry: Registry, serverSideApply: boolean): Filter {
  const routes: Tree = new Map();
  // A route never seen: only a served resource (and declared subresource) gets one.
  const add = (info: RequestInfo, verb: string, dryRun: string, scope: string): RouteMetrics | undefined => {
    if (!isServed(registry, info)) return undefined;
    const at = <T>(m: Level<T>, key: string, make: () => T): T => {
      let v = m.get(key);
      if (v === undefined) m.set(key, (v = make()));
      return v;
    };
    const byScope = at(
      at(
        at(
          at(
            at(
              at(routes, verb, () => new Map()),
              dryRun,
              () => new Map(),
            ),
            info.apiGroup,
            () => new Map(),
          ),
          info.apiVersion,
          () => new Map(),
        ),
        info.resource,
        () => new Map(),
      ),
      info.subresource,
      () => new Map(),
    );
    return at(byScope, scope, () => routeMetrics(metrics, registry, info, verb, dryRun, scope));
  };
  return (state, next) => {
    const { info } = state;
    if (!info.isResourceRequest) return next(state);
    const scope = scopeOf(info);
    const verb = verbOf(state, scope, serverSideApply);
    const dryRun = dryRunOf(state.query);
    const route =
      routes.get(verb)?.get(dryRun)?.get(info.apiGroup)?.get(info.apiVersion)?.get(info.resource)?.get(info.subresource)?.get(scope) ??
      add(info, verb, dryRun, scope);
    if (route === undefined) return next(state);
    const started = state.received;
    route.longRunning?.inc();
    route.watchers?.inc();
    if (route.watchEvents) countWatchEvents(state.res, route.watchEvents);
    const done = (code: number) => {
      route.longRunning?.add(-1);
      route.watchers?.add(-1);
      let counter = route.codes.get(code);
      if (counter === undefined) {
        counter = metrics.requestTotal.child([...route.labels, String(code)]);
        route.codes.set(code, counter);
      }
      counter.inc();
      route.duration.observe((performance.now() - started) / 1000);
      if (route.size) route.size.observe(bodySize(state.res));
    };
    let pending: Promise<void>;
    try {
      pending = next(state);
    } catch (err) {
      done(codeOf(state.res, err));
      throw err;
    }
    return pending.then(
      () => done(state.res.statusCode),
      (err: unknown) => {
        done(codeOf(state.res, err));
        throw err;
      },
    );
  };
}

function isServed(registry: Registry, info: RequestInfo): boolean {
  const served = registry.served(info.apiGroup, info.apiVersion, info.resource);
  return served !== undefined && (info.subresource === '' || served.subresources.has(info.subresource));
}

function routeMetrics(m: ApiServerMetrics, registry: Registry, info: RequestInfo, verb: string, dryRun: string, scope: string): RouteMetrics {
  const { apiGroup: group, apiVersion: version, resource, subresource } = info;
  const resourceLabels = [verb, group, version, resource, subresource, scope, COMPONENT];
  const watch = verb === 'WATCH';
  const kind = registry.served(group, version, resource)?.info.kind ?? '';
  return {
    labels: [verb, dryRun, group, version, resource, subresource, scope, COMPONENT],
    codes: new Map(),
    duration: m.requestDuration.child([verb, dryRun, group, version, resource, subresource, scope, COMPONENT]),
    size: info.verb === 'get' || info.verb === 'list' ? m.responseSizes.child(resourceLabels) : undefined,
    longRunning: isLongRunning(info) ? m.longrunningRequests.child(resourceLabels) : undefined,
    watchers: watch ? m.registeredWatchers.child([group, version, kind]) : undefined,
    watchEvents: watch ? m.watchEventsTotal.child([group, version, kind]) : undefined,
  };
}

/** Upstream's CleanScope. */
function scopeOf(info: RequestInfo): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  return 'cluster';
}

/** Upstream's reported verb: the HTTP method made canonical (GET of a collection is LIST), WATCH, APPLY. */
function verbOf(state: RequestState, scope: string, serverSideApply: boolean): string {
  if (state.info.verb === 'watch') return 'WATCH';
  switch (state.req.method) {
    case 'GET':
    case 'HEAD':
      return scope === 'resource' ? 'GET' : 'LIST';
    case 'POST':
      return 'POST';
    case 'PUT':
      return 'PUT';
    case 'PATCH':
      return serverSideApply && state.req.headers['content-type'] === APPLY_PATCH ? 'APPLY' : 'PATCH';
    case 'DELETE':
      return 'DELETE';
    default:
      return 'other';
  }
}

/** Upstream's cleanDryRun: '' without dryRun, the sorted distinct values when all valid (`All`), else `invalid`. */
function dryRunOf(query: URLSearchParams): string {
  if (query.size === 0 || !query.has('dryRun')) return '';
  const values = query.getAll('dryRun');
  return values.every((v) => v === 'All') ? 'All' : 'invalid';
}

function codeOf(res: Response, err: unknown): number {
  if (res.headersSent) return res.statusCode;
  return err instanceof StatusError ? err.code : 500;
}
