/**
 * client-go's shared informer: one reflector filling one indexed store, and event handlers
 * told of every change in order: add, update (old, new) and delete. A relist is diffed
 * against the store, so handlers see updates for changed objects and deletes for objects gone
 * while the watch was down. A handler added late first gets the current objects as adds.
 */
import type { Clock } from './clock.js';
import { Reflector } from './reflector.js';
import type { RestClient } from './rest-client.js';
import { type IndexFunc, type KubeObject, NAMESPACE_INDEX, namespaceIndexFunc, objectKey, Store } from './store.js';

export interface ResourceEventHandler<T> {
  add?(obj: T): void;
  update?(oldObj: T, newObj: T): void;
  delete?(obj: T): void;
}

export interface InformerOptions<T> {
  client: RestClient;
  /** Collection path across namespaces, e.g. `/api/v1/pods`. */
  path: string;
  /** Encoded selector query for list and watch (`fieldSelector=...`). */
  query?: string;
  /** Extra indexes; the namespace index is always present. */
  indexers?: ReadonlyMap<string, IndexFunc<T>>;
  clock?: Clock;
  watchTimeoutSeconds?: () => number;
  /** A handler threw, or list/watch failed (logging). */
  onError?: (err: unknown) => void;
  /**
   * client-go's SetTransform: applied (in place or not) to every object the reflector hands over,
   * before the store keeps it and before handlers see it; drops what this client never reads.
   */
  transform?: (obj: T) => T;
}

export class SharedInformer<T extends KubeObject> {
  readonly store: Store<T>;
  readonly reflector: Reflector<T>;
  private readonly handlers: ResourceEventHandler<T>[] = [];
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];

  constructor(private readonly o: InformerOptions<T>) {
    this.store = new Store<T>(new Map([[NAMESPACE_INDEX, namespaceIndexFunc as IndexFunc<T>], ...(o.indexers ?? [])]));
    const transform = o.transform;
    this.reflector = new Reflector<T>({
      client: o.client,
      path: o.path,
      query: o.query,
      clock: o.clock,
      watchTimeoutSeconds: o.watchTimeoutSeconds,
      onError: o.onError,
      sink: {
        replace: (items) => this.replace(transform === undefined ? items : items.map(transform)),
        added: (obj) => this.upsert(transform === undefined ? obj : transform(obj)),
        modified: (obj) => this.upsert(transform === undefined ? obj : transform(obj)),
        deleted: (seen) => {
          const obj = transform === undefined ? seen : transform(seen);
          const old = this.store.delete(obj);
          // The event's object is the final state; a delete of an unknown object still informs.
          if (old !== undefined || this.synced) this.notify((h) => h.delete?.(obj));
        },
      },
    });
  }

  /** Registers handlers; objects already in the store are delivered as adds first. */
  addEventHandler(h: ResourceEventHandler<T>): void {
    this.handlers.push(h);
    for (const obj of this.store.list()) this.call(() => h.add?.(obj));
  }

  /** True once the first list has been applied. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves true when synced, false if the signal aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.syncWaiters.push(() => resolve(true));
      signal?.addEventListener('abort', () => resolve(false), { once: true });
    });
  }

  start(): void {
    this.reflector.start();
  }

  stop(): Promise<void> {
    return this.reflector.stop();
  }

  private upsert(obj: T): void {
    const old = this.store.upsert(obj);
    if (old === undefined) this.notify((h) => h.add?.(obj));
    else this.notify((h) => h.update?.(old, obj));
  }

  private replace(items: T[]): void {
    const seen = new Set<string>();
    for (const obj of items) {
      seen.add(objectKey(obj));
      this.upsert(obj);
    }
    const gone: T[] = [];
    for (const key of this.store.keys()) if (!seen.has(key)) gone.push(this.store.getByKey(key)!);
    for (const obj of gone) {
      this.store.delete(obj);
      this.notify((h) => h.delete?.(obj));
    }
    if (!this.synced) {
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    }
  }

  private notify(fn: (h: ResourceEventHandler<T>) => void): void {
    for (const h of this.handlers) this.call(() => fn(h));
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.o.onError?.(err);
    }
  }
}

/** Resolves true when every informer has synced, false if the signal aborts first (client-go's WaitForCacheSync). */
export function waitForCacheSync(informers: readonly SharedInformer<KubeObject>[], signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  // One abort listener for the lot, not one per informer.
  const all = Promise.all(informers.map((i) => i.waitForSync())).then(() => true);
  if (signal === undefined) return all;
  return new Promise((resolve) => {
    const abort = () => resolve(false);
    signal.addEventListener('abort', abort, { once: true });
    void all.then((v) => {
      signal.removeEventListener('abort', abort);
      resolve(v);
    });
  });
}
