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
  readEntry(namespace: string, name: string, plan: ReadPlan): Promise<CacheEntry>;
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

/** Deletes every object a list selects, one by one (each through its own validating admission). */
export interface CollectionDeleter {
  deleteCollection(
    ctx: RequestContext,
    namespace: string,
    listOpts: ListOptions,
    plan: ReadPlan,
    selection: Selection,
    opts: (name: string) => DeleteOptions,
  ): Promise<EntryList & { items: Obj[] }>;
}

/** The capabilities of one resource or subresource; absent ones are verbs it does not serve. */
export interface Capabilities {
  getter?: Getter;
  lister?: Lister;
  watcher?: Watcher;
  creater?: Creater;
  updater?: Updater;
  patcher?: Patcher;
  deleter?: Deleter;
  collectionDeleter?: CollectionDeleter;
}

const VERB_OF: Readonly<Record<keyof Capabilities, Verb>> = {
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
  const out = new Set<Verb>();
  for (const [key, verb] of Object.entries(VERB_OF) as [keyof Capabilities, Verb][]) if (c[key] !== undefined) out.add(verb);
  return out;
}

/** Only the capabilities whose verbs are in `verbs` (a definition may serve fewer verbs than its storage can). */
export function restrictTo(c: Capabilities, verbs: ReadonlySet<Verb>): Capabilities {
  const out: Capabilities = {};
  for (const [key, verb] of Object.entries(VERB_OF) as [keyof Capabilities, Verb][]) {
    if (verbs.has(verb) && c[key] !== undefined) (out as Record<string, unknown>)[key] = c[key];
  }
  return out;
}
