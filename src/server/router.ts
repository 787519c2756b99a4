/**
 * The request chain, declared once in request order: request info -> panic recovery ->
 * authentication -> authorization -> handler (non-resource paths, or one handler per verb).
 */
import type { TLSSocket } from 'node:tls';
import type { Registry } from '../registry/registry.js';
import type { Brand } from '../machinery/brand.js';
import type { Admission } from '../admission/admission.js';
import type { Authorizer } from '../auth/authz/authorizer.js';
import { forbiddenMessage } from '../auth/authz/authorizer.js';
import { authenticateClientCertificate } from '../auth/authn/x509.js';
import { requestInfo } from './request-info.js';
import { writeError, writeObject, type Output, type Request, type Response } from './http.js';
import { negotiate } from '../codec/negotiation.js';
import { methodNotAllowed, pathNotFound, StatusError, unauthorized } from '../machinery/status.js';
import { parseAccept, type MediaRange } from '../codec/accept.js';
import { serveResource } from './resource-routes.js';
import { serveHealth, type HealthCheck } from './health.js';
import type { DiscoveryDocuments } from './discovery.js';
import type { ReviewDeps } from '../registry/reviews.js';

export interface RouterConfig {
  registry: Registry;
  brand: Brand;
  admission: Admission;
  authorizer: Authorizer;
  reviews: ReviewDeps;
  discovery: DiscoveryDocuments;
  version: Record<string, string>;
  health: { livez: HealthCheck[]; readyz: HealthCheck[]; healthz: HealthCheck[] };
  /** Resolves when the server begins shutting down (long requests end then). */
  shuttingDown: Promise<void>;
  /** The ServerSideApply feature gate (default on). */
  serverSideApply?: boolean;
}

/** The OpenAPI documents and the handler serving them. */
interface OpenAPI {
  documents: import('./openapi/documents.js').OpenAPIDocuments;
  serve: typeof import('./openapi/handler.js').serveOpenAPI;
}

/** Builds the request handler. */
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
  return (req, res) => {
    handle(cfg, openapi, req, res).catch((err) => writeError(res, err, errorOutput(req, cfg.brand)));
  };
}

/** Errors go out in the representation the client asked for, or JSON when it cannot be had. */
function errorOutput(req: Request, brand: Brand): Output | undefined {
  try {
    const { encodings, protobufMediaType } = negotiate(parseAccept(req.headers.accept as string | undefined), brand);
    return { encodings, pretty: false, protobufMediaType };
  } catch {
    return undefined;
  }
}

async function handle(cfg: RouterConfig, openapi: () => Promise<OpenAPI>, req: Request, res: Response): Promise<void> {
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1));
  const method = req.method ?? 'GET';
  const info = requestInfo(method, path, query);

  const user = authenticateClientCertificate(req.socket as TLSSocket);
  if (!user) throw unauthorized();
  const attrs = {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
  if (cfg.authorizer.authorize(attrs) !== 'allow') {
    const gr = { group: info.apiGroup, resource: info.resource };
    throw new StatusError(
      403,
      'Forbidden',
      info.isResourceRequest
        ? `${gr.group ? `${gr.resource}.${gr.group}` : gr.resource}${info.name ? ` "${info.name}"` : ''} is forbidden: ${forbiddenMessage(attrs)}`
        : `forbidden: ${forbiddenMessage(attrs)}`,
      { name: info.name, group: info.apiGroup || undefined, kind: info.resource || undefined },
    );
  }
  if (info.isResourceRequest) return serveResource(cfg, req, res, info, query, user);
  return handleNonResource(cfg, openapi, req, res, path, query);
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
  if (req.method !== 'GET' && req.method !== 'HEAD') throw pathNotFound();
  const ranges = parseAccept(req.headers.accept as string | undefined);
  const pretty = query.get('pretty') === 'true';
  if (path === '/version' || path === '/version/') return writeObject(res, 200, cfg.version, { encodings: ['json'], pretty, protobufMediaType: '' });
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

function writeRaw(res: Response, json: string): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

/** The apidiscovery version the client asks for (`v2` or `v2beta1`), if it asks for aggregated discovery. */
function aggregatedDiscoveryVersion(ranges: MediaRange[], brand: Brand): string | undefined {
  for (const m of ranges) {
    if (m.params.as === 'APIGroupDiscoveryList' && m.params.g === brand.discoveryGroup && (m.params.v === 'v2' || m.params.v === 'v2beta1')) return m.params.v;
    if (m.params.as === undefined) return undefined;
  }
  return undefined;
}
