/**
 * The verbs a resource (or subresource) serves, as capability interfaces (upstream's
 * rest.Getter, rest.Lister, rest.Watcher, rest.Creater, rest.Updater, rest.Patcher,
 * rest.GracefulDeleter, rest.CollectionDeleter). A scope holds the objects implementing them;
 * the routes, discovery verbs and OpenAPI operations of a resource are exactly the capabilities
 * it has. Handlers call these and nothing else of the registry's writes.
 */
import type { Verb } from '../api/types.js';
import type { Obj } from '../machinery/object.js';
import type { CacheEntry } from '../storage/cacher/types.js';
import type { DeleteOptions, ListOptions, RequestContext, UpdateOptions, WriteOptions } from './context.js';
import type { EntryList } from './list.js';
import type { ReadPlan, WatchPlan } from './read-options.js';
import type { Selection } from './selection.js';
import type { WatchStart } from './watch.js';
import type { DeleteResult, UpdateResult, UpdateTransform } from './generic-store.js';

/** Reads one object (its served bytes) as the Get table plans it. */
export interface Getter {
  /** The entry now when it is at hand (the watch cache's), else later; a refusal is always a rejection. */
  readEntry(namespace: string, name: string, plan: ReadPlan): CacheEntry | Promise<CacheEntry>;
}

/** Reads a list (or one chunk) as the List table plans it. */
export interface Lister {
  list(namespace: string, opts: ListOptions, plan: ReadPlan, selection: Selection): Promise<EntryList>;
}

/** Starts a watch as the Watch table plans it. */
export interface Watcher {
  watch(namespace: string, plan: WatchPlan, selection: Selection): Promise<WatchStart>;
}

/** Creates from a posted object; answers what the response carries (the object, a review, a Status). */
export interface Creater {
  /** `name` is the URL's name when the create is a subresource of an object (pods/<name>/binding). */
  create(ctx: RequestContext, namespace: string, obj: Obj, opts: WriteOptions & { name?: string }): Promise<Obj>;
}

/** Read-modify-write of one object; patch and apply are transforms of the current object. */
export interface Updater {
  update(ctx: RequestContext, namespace: string, name: string, transform: UpdateTransform, opts: Omit<UpdateOptions, 'subresource'>): Promise<UpdateResult>;
}

/** Marks an Updater that also serves PATCH (a subresource may serve PUT only). */
export interface Patcher extends Updater {
  readonly patches: true;
}

export interface Deleter {
  delete(ctx: RequestContext, namespace: string, name: string, opts: DeleteOptions): Promise<DeleteResult>;
}

/** Deletes every object a list selects, one by one (each through its own validating admission); answers the list deleted. */
export interface CollectionDeleter {
  deleteCollection(
    ctx: RequestContext,
    namespace: string,
    listOpts: ListOptions,
    plan: ReadPlan,
    selection: Selection,
    opts: (name: string) => DeleteOptions,
  ): Promise<EntryList>;
}

/**
 * Where a connect subresource (pods/log, exec, attach, portforward, proxy; nodes/proxy;
 * services/proxy) leads (upstream's rest.Connecter): the server dials the location and streams.
 */
export interface ConnectLocation {
  /** The backend URL (path and query included); undefined for a log of a pod on no node (empty answer). */
  url?: URL;
  /** The backend is a node agent (errors say `error dialing backend`) or a proxied address (`error trying to reach service`). */
  via: 'kubelet' | 'proxy';
}

export interface Connecter {
  /** The methods served, as verbs (a proxy serves every method). */
  readonly verbs: ReadonlySet<Verb>;
  /** `path` is what follows the subresource in the URL (proxy); query is the request's. */
  location(ctx: RequestContext, namespace: string, name: string, path: string, query: URLSearchParams): Promise<ConnectLocation>;
}

/** The capabilities of one resource or subresource; absent ones are verbs it does not serve. */
export interface Capabilities {
  connecter?: Connecter;
  getter?: Getter;
  lister?: Lister;
  watcher?: Watcher;
  creater?: Creater;
  updater?: Updater;
  patcher?: Patcher;
  deleter?: Deleter;
  collectionDeleter?: CollectionDeleter;
}

// A connecter serves several verbs; the other capabilities one each.
const VERB_OF: Readonly<Record<Exclude<keyof Capabilities, 'connecter'>, Verb>> = {
  getter: 'get',
  lister: 'list',
  watcher: 'watch',
  creater: 'create',
  updater: 'update',
  patcher: 'patch',
  deleter: 'delete',
  collectionDeleter: 'deletecollection',
};

/** The verbs a set of capabilities serves. */
export function verbsOf(c: Capabilities): Set<Verb> {
  const out = new Set<Verb>(c.connecter?.verbs ?? []);
  for (const [key, verb] of Object.entries(VERB_OF) as [Exclude<keyof Capabilities, 'connecter'>, Verb][]) if (c[key] !== undefined) out.add(verb);
  return out;
}

/** Only the capabilities whose verbs are in `verbs` (a definition may serve fewer verbs than its storage can). */
export function restrictTo(c: Capabilities, verbs: ReadonlySet<Verb>): Capabilities {
  const out: Capabilities = {};
  if (c.connecter && [...c.connecter.verbs].some((v) => verbs.has(v))) out.connecter = c.connecter;
  for (const [key, verb] of Object.entries(VERB_OF) as [Exclude<keyof Capabilities, 'connecter'>, Verb][]) {
    if (verbs.has(verb) && c[key] !== undefined) (out as Record<string, unknown>)[key] = c[key];
  }
  return out;
}
