/**
 * The request chain, declared once in request order (upstream's DefaultBuildHandlerChain):
 * audit ID -> (received timestamp) -> request info -> HTTP logging -> response feature gates ->
 * panic recovery -> request timeout -> (failed-authentication audit) -> authentication -> (audit)
 * -> impersonation -> priority and fairness (or the in-flight limit) -> authorization -> request
 * metrics -> request feature gates -> handler (the aggregator's proxy for other servers' group
 * versions, non-resource paths here, resource paths in resource-routes.ts).
 * The audit filters in parentheses are there only with an audit policy and backend: without
 * them, auditing costs the Audit-Id header alone. Each filter is one file under filters/.
 */
import type { Brand } from '../machinery/brand.js';
import type { MetricsRegistry } from '../machinery/metrics.js';
import { writeBody, writeError, type Request, type Response } from './http.js';
import { negotiate } from '../codec/negotiation.js';
import { methodNotAllowed, pathNotFound } from '../machinery/status.js';
import { parseAccept, type MediaRange } from '../codec/accept.js';
import { serveResource } from './resource-routes.js';
import { serveHealth } from './health.js';
import { serveIssuerDocument } from './service-account-issuer.js';
import { buildChain, type Filter, type RequestState } from './filters/chain.js';
import { withRequestInfo } from './filters/request-info.js';
import { withHTTPLogging } from './filters/http-log.js';
import { withPanicRecovery } from './filters/panic-recovery.js';
import { withRequestTimeout } from './filters/timeout.js';
import { withAuthentication } from './filters/authentication.js';
import { withImpersonation } from './filters/impersonation.js';
import { withMaxInFlight } from './filters/max-in-flight.js';
import { withPriorityAndFairness } from './filters/priority-and-fairness.js';
import { DEFAULT_IN_FLIGHT, DEFAULT_REQUEST_TIMEOUT_MS, type RouterConfig } from './router-config.js';
import { withAuthorization } from './filters/authorization.js';
import { withRequestFeatureGates, withResponseFeatureGates } from './filters/feature-gates.js';
import { withRequestMetrics } from './filters/metrics.js';
import { serverFeatures } from './feature-gates.js';
import { withAudit, withAuditInit, withFailedAuthenticationAudit, withRequestReceivedTimestamp } from './filters/audit.js';

/** The OpenAPI documents and the handler serving them. */
interface OpenAPI {
  documents: import('./openapi/documents.js').OpenAPIDocuments;
  serve: typeof import('./openapi/handler.js').serveOpenAPI;
}

/** Builds the request handler: the filters in request order around the final handler. */
export function createRouter(cfg: RouterConfig): (req: Request, res: Response) => void {
  // The OpenAPI documents and their modules are built on the first request for them, not at start-up.
  let documents: Promise<OpenAPI> | undefined;
  const openapi = (): Promise<OpenAPI> => {
    documents ??= Promise.all([import('./openapi/documents.js'), import('./openapi/handler.js')]).then(([d, h]) => ({
      documents: new d.OpenAPIDocuments({ registry: cfg.registry, brand: cfg.brand, version: cfg.version.gitVersion ?? '' }),
      serve: h.serveOpenAPI,
    }));
    return documents;
  };
  const features = cfg.features ?? serverFeatures();
  // Upstream's DefaultBuildHandlerChain, outermost first. A filter not built yet is simply absent.
  const filters: Filter[] = [
    withAuditInit,
    ...(cfg.audit ? [withRequestReceivedTimestamp()] : []),
    withRequestInfo,
    withHTTPLogging,
    withResponseFeatureGates(features),
    withPanicRecovery(cfg.brand),
    withRequestTimeout(cfg.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS),
    ...(cfg.audit ? [withFailedAuthenticationAudit({ ...cfg.audit, brand: cfg.brand })] : []),
    withAuthentication(cfg.authenticator),
    ...(cfg.audit ? [withAudit({ ...cfg.audit, brand: cfg.brand })] : []),
    withImpersonation(cfg.authorizer, cfg.brand),
    // API Priority and Fairness replaces the in-flight limits when it is on (upstream: one or the other).
    cfg.flowControl
      ? withPriorityAndFairness(cfg.flowControl, cfg.brand, cfg.inFlightCounts?.onDropped)
      : withMaxInFlight(cfg.inFlight ?? DEFAULT_IN_FLIGHT, cfg.inFlightCounts),
    withAuthorization(cfg.authorizer),
    cfg.metrics ? withRequestMetrics(cfg.metrics, cfg.registry, features.serverSideApply) : undefined,
    withRequestFeatureGates(features),
  ].filter((f): f is Filter => f !== undefined);
  const chain = buildChain(filters, (state) => {
    // Upstream's aggregator sits in front: a group version another server serves is proxied there.
    const proxied = cfg.aggregator?.route(state);
    if (proxied) return proxied;
    if (state.info.isResourceRequest) return serveResource(cfg, state);
    return handleNonResource(cfg, openapi, state.req, state.res, state.path, state.query);
  });
  return (req, res) => {
    // The request-info filter fills in the rest of the state before anything reads it.
    chain({ req, res } as RequestState).catch((err) => writeError(res, err));
  };
}

async function handleNonResource(
  cfg: RouterConfig,
  openapi: () => Promise<OpenAPI>,
  req: Request,
  res: Response,
  path: string,
  query: URLSearchParams,
): Promise<void> {
  const segments = path.split('/').filter((s) => s !== '');
  const first = segments[0] ?? '';
  if (first === 'healthz' || first === 'livez' || first === 'readyz') {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed();
    // Check names may contain slashes (`poststarthook/<name>`), as upstream serves them.
    return serveHealth(first, cfg.health[first], segments.slice(1).join('/'), query, res);
  }
  if (path === '/metrics' && cfg.metrics) return serveMetrics(cfg.metrics.registry, req, res);
  if (req.method !== 'GET' && req.method !== 'HEAD') throw pathNotFound();
  if (cfg.issuerDocuments && serveIssuerDocument(cfg.issuerDocuments, path, res)) return;
  const ranges = parseAccept(req.headers.accept as string | undefined);
  // Upstream writes version.Info with WriteRawJSON: always indented, no trailing newline, whatever `pretty` says.
  if (path === '/version' || path === '/version/') return writeBody(res, 200, 'application/json', Buffer.from(JSON.stringify(cfg.version, null, 2)));
  if (first === 'openapi') {
    const { documents, serve } = await openapi();
    return serve(documents, req, res, path, query);
  }
  const d = cfg.discovery;
  if ((path === '/api' || path === '/apis') && segments.length === 1) {
    const aggregated = aggregatedDiscoveryVersion(ranges, cfg.brand);
    if (aggregated) {
      const doc = d.aggregated.get(aggregated);
      const body = path === '/api' ? doc?.legacy : doc?.apis;
      res.writeHead(200, { 'content-type': `application/json;g=${cfg.brand.discoveryGroup};v=${aggregated};as=APIGroupDiscoveryList`, vary: 'Accept' });
      res.end(body ?? '');
      return;
    }
    negotiate(ranges, cfg.brand);
    return writeRaw(res, path === '/api' ? d.legacyVersions : d.groupList);
  }
  if (first === 'apis' && segments.length === 2 && d.groups.has(segments[1])) return writeRaw(res, d.groups.get(segments[1]) as string);
  const list = d.resourceLists.get(path.replace(/\/$/, ''));
  if (list !== undefined) return writeRaw(res, list);
  throw pathNotFound();
}

/** /metrics in the Prometheus text format; DELETE resets every metric (upstream's MetricsWithReset, profiling on). */
function serveMetrics(registry: MetricsRegistry, req: Request, res: Response): void {
  if (req.method === 'DELETE') {
    registry.reset();
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('metrics reset\n');
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') throw methodNotAllowed();
  const body = Buffer.from(registry.expose());
  res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': body.length });
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

function writeRaw(res: Response, json: string): void {
  // Upstream writes discovery documents through its JSON serializer (json.Encoder), newline-terminated.
  const body = `${json}\n`;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The apidiscovery version the client asks for (`v2` or `v2beta1`), if it asks for aggregated discovery. */
function aggregatedDiscoveryVersion(ranges: MediaRange[], brand: Brand): string | undefined {
  for (const m of ranges) {
    if (m.params.as === 'APIGroupDiscoveryList' && m.params.g === brand.discoveryGroup && (m.params.v === 'v2' || m.params.v === 'v2beta1')) return m.params.v;
    if (m.params.as === undefined) return undefined;
  }
  return undefined;
}
