/**
 * The registry contract's only view of a resource store: every call the suite makes into the
 * registry goes through this file, so the suite follows the registry's shape by changing these
 * few lines (the verbs as the handlers drive them: create, read-modify-write, two-phase delete,
 * list and watch through the read plans).
 */
import type { Obj } from '../machinery/object.js';
import { metaOf } from '../machinery/object.js';
import { mergePatch } from '../apply/merge-patch.js';
import { ORCH_BRAND } from '../machinery/brand.js';
import type { CacherOptions } from '../storage/cacher/cacher.js';
import type { Store } from '../storage/interface.js';
import { entryObject } from './cache-entry.js';
import type { AdmissionHook, ListOptions, RequestContext } from './context.js';
import type { DeleteResult, GenericStore } from './generic-store.js';
import { listEntries } from './list.js';
import { planGet, planList, planWatch } from './read-options.js';
import type { ResourceInfo } from './resource-info.js';
import { selectionFor } from './selection.js';
import { storeFor } from './stores.js';
import { startWatch } from './watch.js';
import type { ResourceDefinition } from '../api/types.js';
import { resolveResource } from './resource-info.js';

/** The store a factory returns, and how to release it after one test. */
export interface StoreUnderTest {
  store: GenericStore;
  cleanup(): void | Promise<void>;
}

/** Makes a fresh store of one resource over an empty backend, its watch cache started. */
export type MakeStore = () => Promise<StoreUnderTest>;

/** A MakeStore for a catalogue definition over a backend (the server's own choice of store class). */
export function storeOf(def: ResourceDefinition, makeBackend: () => Store & { close?(): unknown }, cacheOptions: CacherOptions = {}): MakeStore {
  return async () => {
    const backend = makeBackend();
    const store = storeFor(resolveResource(def, ORCH_BRAND), backend, ORCH_BRAND, cacheOptions, {});
    await store.startCache();
    return {
      store,
      cleanup: () => {
        store.stopCache();
        backend.close?.();
      },
    };
  };
}

export interface WriteOpts {
  dryRun?: boolean;
  mutate?: AdmissionHook;
  admit?: AdmissionHook;
}

export interface UpdateOpts extends WriteOpts {
  subresource?: string;
}

export interface DeleteOpts extends WriteOpts {
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface ObjList {
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: Obj[];
}

export interface WatchEvent {
  type: string;
  object: Obj;
}

/** A running watch: events arrive in `events`; next() waits for more. */
export interface Watching {
  events: WatchEvent[];
  /** Resolves once at least n events arrived (rejects after timeoutMs). */
  next(n: number, timeoutMs?: number): Promise<WatchEvent[]>;
  stop(): void;
}

const CTX: RequestContext = { user: { name: 'admin', groups: ['system:masters'] }, brand: ORCH_BRAND, now: new Date('2024-05-06T07:08:09Z') };

/** The verbs of one store as the suite uses them. */
export class Subject {
  constructor(readonly store: GenericStore) {}

  get info(): ResourceInfo {
    return this.store.info;
  }

  get namespaced(): boolean {
    return this.store.info.namespaced;
  }

  /** The namespace requests use: `ns` for namespaced types, '' otherwise. */
  ns(ns = 'ns1'): string {
    return this.namespaced ? ns : '';
  }

  revision(): number {
    return this.store.currentRevision();
  }

  async get(namespace: string, name: string): Promise<Obj> {
    return entryObject(await this.store.readEntry(namespace, name, planGet(undefined)));
  }

  /** A copy of a request body with the kind's apiVersion and kind, as the handlers decode bodies. */
  private body(obj: Obj): Obj {
    return { apiVersion: this.info.apiVersion, kind: this.info.kind, ...structuredClone(obj) };
  }

  create(namespace: string, obj: Obj, opts: WriteOpts = {}): Promise<Obj> {
    return this.store.create(CTX, namespace, this.body(obj), { dryRun: opts.dryRun ?? false, mutatingAdmission: opts.mutate, validatingAdmission: opts.admit });
  }

  /** PUT: the body replaces the object (a compare-and-swap when it carries a resourceVersion). */
  async update(namespace: string, name: string, obj: Obj, opts: UpdateOpts = {}): Promise<Obj> {
    const { obj: out } = await this.store.guaranteedUpdate(CTX, namespace, name, () => this.body(obj), {
      dryRun: opts.dryRun ?? false,
      subresource: opts.subresource ?? '',
      mutatingAdmission: opts.mutate,
      validatingAdmission: opts.admit,
    });
    return out;
  }

  /** A JSON merge patch applied to the current object inside the update loop. */
  async patch(namespace: string, name: string, patch: Record<string, unknown>, opts: UpdateOpts = {}): Promise<Obj> {
    const { obj } = await this.store.guaranteedUpdate(CTX, namespace, name, (current) => mergePatch(current, patch) as Obj, {
      dryRun: opts.dryRun ?? false,
      subresource: opts.subresource ?? '',
      mutatingAdmission: opts.mutate,
      validatingAdmission: opts.admit,
    });
    return obj;
  }

  delete(namespace: string, name: string, opts: DeleteOpts = {}): Promise<DeleteResult> {
    return this.store.delete(CTX, namespace, name, { dryRun: opts.dryRun ?? false, preconditions: opts.preconditions, validatingAdmission: opts.admit });
  }

  async list(namespace: string, opts: ListOptions = {}): Promise<ObjList> {
    const list = await listEntries(this.store, namespace, opts, planList(opts, ORCH_BRAND), selectionFor(this.info, opts), ORCH_BRAND.metaGroup);
    return { metadata: list.metadata, items: list.entries.map(entryObject) };
  }

  /** Deletes what the selectors select, as the deletecollection handler does; returns what was deleted. */
  async deleteCollection(namespace: string, opts: ListOptions & { dryRun?: boolean } = {}): Promise<Obj[]> {
    const { items } = await this.list(namespace, { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector });
    for (const item of items) {
      const meta = metaOf(item);
      await this.delete(meta.namespace ?? '', meta.name ?? '', { dryRun: opts.dryRun });
    }
    return items;
  }

  async watch(namespace: string, opts: ListOptions = {}): Promise<Watching> {
    const start = await startWatch(this.store, namespace, planWatch(opts, ORCH_BRAND), selectionFor(this.info, opts));
    const events: WatchEvent[] = start.initial.map((e) => ({ type: 'ADDED', object: entryObject(e) }));
    if (start.expired) events.push({ type: 'ERROR', object: start.expired as unknown as Obj });
    for (const line of start.backlog) events.push(JSON.parse(line.toString('utf8')) as WatchEvent);
    let wake: () => void = () => {};
    const stop = start.subscribe((line) => {
      events.push(JSON.parse(line.toString('utf8')) as WatchEvent);
      wake();
      return true;
    });
    return {
      events,
      stop,
      async next(n, timeoutMs = 2000) {
        const deadline = Date.now() + timeoutMs;
        while (events.length < n) {
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`watch: ${events.length} events after ${timeoutMs} ms, wanted ${n}: ${JSON.stringify(events.map((e) => e.type))}`);
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, left);
            wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
        }
        return events;
      },
    };
  }
}
