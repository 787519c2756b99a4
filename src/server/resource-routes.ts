/**
 * Resource requests: which paths and verbs each resource serves (upstream's installer routes:
 * the verbs of a resource or subresource are the capabilities its scope implements), response
 * negotiation, and dispatch to one handler per verb.
 */
import { DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS, type RouterConfig } from './router-config.js';
import { addWarning } from './http.js';
import type { RequestState } from './filters/chain.js';
import type { ResourceInfo } from '../registry/resource-info.js';
import { deprecationOf } from './deprecation.js';
import { addAuditAnnotation } from './filters/audit.js';
import { type AsKind, type Negotiated, negotiate } from '../codec/negotiation.js';
import type { Brand } from '../machinery/brand.js';
import { parseAccept } from '../codec/accept.js';
import { methodNotAllowed, pathNotFound } from '../machinery/status.js';
import { queryBool } from '../machinery/go-bool.js';
import type { ResourceRequest } from './handlers/resource-request.js';
import { handleGet } from './handlers/get.js';
import { handleCreate } from './handlers/create.js';
import { handleUpdate } from './handlers/update.js';
import { handlePatch } from './handlers/patch.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import { handleList } from './handlers/list.js';
import { handleWatch } from './handlers/watch.js';
import { handleConnect } from './handlers/connect.js';
import type { Verb } from '../api/types.js';
import type { Registry } from '../registry/registry.js';
import { ScopeTable } from './scope.js';

/** The scope table of each registry, built on its first request and following its registrations. */
const tables = new WeakMap<Registry, ScopeTable>();

function scopeTable(registry: Registry): ScopeTable {
  let table = tables.get(registry);
  if (table === undefined) tables.set(registry, (table = new ScopeTable(registry)));
  return table;
}

const HANDLERS: Record<string, (r: ResourceRequest) => Promise<void>> = {
  get: handleGet,
  list: handleList,
  watch: handleWatch,
  create: handleCreate,
  update: handleUpdate,
  patch: handlePatch,
  delete: handleDelete,
  deletecollection: handleDeleteCollection,
};

/** The verbs each shape of path serves (upstream's installer registers exactly these routes). */
const COLLECTION_VERBS: ReadonlySet<string> = new Set(['list', 'watch', 'create', 'deletecollection']);
const ACROSS_NAMESPACES_VERBS: ReadonlySet<string> = new Set(['list', 'watch']);
// watch: an object under the deprecated /watch/ prefix (a watch of that one object).
const OBJECT_VERBS: ReadonlySet<string> = new Set(['get', 'update', 'patch', 'delete', 'watch']);

/** The meta kinds each read can answer with (upstream's endpoint restrictions for `as=`). */
const TRANSFORMS: Readonly<Record<string, readonly AsKind[]>> = {
  get: ['Table', 'PartialObjectMetadata'],
  list: ['Table', 'PartialObjectMetadataList'],
  watch: ['Table', 'PartialObjectMetadata'],
};

/** Negotiations already made, per brand, by verb and Accept header (never mutated: shared by requests). */
const negotiations = new WeakMap<Brand, Map<string, Negotiated>>();
/** Distinct (verb, Accept) pairs remembered; past this the memory starts over, so odd headers cannot grow it. */
const MAX_NEGOTIATIONS = 256;

/**
 * The response encodings for a request: clients send a handful of distinct Accept headers, so
 * each is parsed and negotiated once, not per request. A refusal (406) is not remembered.
 */
function negotiated(brand: Brand, verb: string, accept: string | undefined): Negotiated {
  let known = negotiations.get(brand);
  if (known === undefined) negotiations.set(brand, (known = new Map()));
  const key = `${verb}\n${accept ?? ''}`;
  let n = known.get(key);
  if (n === undefined) {
    n = negotiate(parseAccept(accept), brand, TRANSFORMS[verb] ?? []);
    if (known.size >= MAX_NEGOTIATIONS) known.clear();
    known.set(key, n);
  }
  return n;
}

/** A request to a deprecated built-in version: its Warning, its audit marker and its gauge. */
function noteDeprecated(cfg: RouterConfig, state: RequestState, info: ResourceInfo, subresource: string): void {
  const deprecation = deprecationOf(info, cfg.brand);
  if (deprecation === undefined) return;
  addWarning(state.res, deprecation.warning);
  // Upstream's audit annotations (`k8s.io/deprecated`, `k8s.io/removed-release`), in the brand's domain.
  addAuditAnnotation(state, cfg.brand.key('deprecated'), 'true');
  if (deprecation.removedRelease !== '') addAuditAnnotation(state, cfg.brand.key('removed-release'), deprecation.removedRelease);
  cfg.recordDeprecatedRequest?.({ group: info.group, version: info.version, resource: info.plural, subresource, removed_release: deprecation.removedRelease });
}

/** Routes one resource request to its verb handler. */
export async function serveResource(cfg: RouterConfig, state: RequestState): Promise<void> {
  const { req, res, info, query } = state;
  const user = state.user as ResourceRequest['ctx']['user'];
  const scopes = scopeTable(cfg.registry).lookup(info.apiGroup, info.apiVersion, info.resource);
  // Only a proxy takes a path after its subresource (pods/<name>/proxy/<path>).
  if (!scopes || (info.parts.length > 3 && info.subresource !== 'proxy')) throw pathNotFound();
  const def = scopes.resource.info;
  const sub = info.subresource;
  let scope = scopes.resource;
  if (sub !== '') {
    // A subresource serves exactly the verbs of the capabilities it implements, on the object's path.
    const declared = scopes.subresources.get(sub);
    if (!declared) throw pathNotFound();
    if (!declared.verbs.has(info.verb as Verb)) throw methodNotAllowed();
    scope = declared;
    noteDeprecated(cfg, state, def, sub);
    if (scope.capabilities.connecter) {
      await handleConnect({
        req,
        res,
        info,
        query,
        scope,
        admission: cfg.admission,
        ctx: { user, brand: cfg.brand, now: new Date() },
        namespace: def.namespaced ? info.namespace : '',
        name: info.name,
        subresource: sub,
        output: { encodings: ['json'], pretty: false, protobufMediaType: '' },
        shuttingDown: cfg.shuttingDown,
        serverSideApply: cfg.features?.serverSideApply !== false,
        remainingItemCount: cfg.features?.remainingItemCount !== false,
        minRequestTimeoutSeconds: cfg.minRequestTimeoutSeconds ?? DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS,
      });
      return;
    }
  } else {
    // As upstream's routes: a collection serves list/watch, create and deletecollection (only
    // list/watch across namespaces); an object serves get, update, patch and delete. Another
    // method on an existing route is 405; an object path across namespaces is no route (404).
    const collection = info.name === '';
    const acrossNamespaces = def.namespaced && info.namespace === '';
    if (acrossNamespaces && !collection) throw pathNotFound();
    const shape = collection ? (acrossNamespaces ? ACROSS_NAMESPACES_VERBS : COLLECTION_VERBS) : OBJECT_VERBS;
    if (!shape.has(info.verb) || !scope.verbs.has(info.verb as Verb)) throw methodNotAllowed();
  }
  const handler = HANDLERS[info.verb];
  if (!handler) throw methodNotAllowed();
  // A deprecated custom resource version warns on every request, as upstream's deprecation filter.
  if (def.def.deprecationWarning !== undefined) addWarning(res, def.def.deprecationWarning);
  // (A subresource request noted it when its route was found.)
  if (sub === '') noteDeprecated(cfg, state, def, '');
  const pretty = queryBool(query.getAll('pretty'));
  const { encodings, protobufMediaType, as } = negotiated(cfg.brand, info.verb, req.headers.accept as string | undefined);
  await handler({
    req,
    res,
    info,
    query,
    scope,
    admission: cfg.admission,
    ctx: { user, brand: cfg.brand, now: new Date() },
    namespace: def.namespaced ? info.namespace : '',
    name: info.name,
    subresource: sub,
    output: { encodings, pretty, protobufMediaType, as },
    shuttingDown: cfg.shuttingDown,
    serverSideApply: cfg.features?.serverSideApply !== false,
    remainingItemCount: cfg.features?.remainingItemCount !== false,
    minRequestTimeoutSeconds: cfg.minRequestTimeoutSeconds ?? DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS,
  });
}
