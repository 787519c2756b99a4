/**
 * The watch cache of one resource: the current objects and a ring of recent events, fed by one
 * watch on the store. It serves lists and watches from memory; every object and event is
 * encoded once (by the registry's `toEntry`) and the same bytes go to every reader.
 *
 * Freshness: a local store publishes each commit to live watchers synchronously, before any
 * other code runs, so once the cache's own watch is live it is as fresh as
 * `store.currentRevision()`. A remote store (etcd, written by other replicas too) delivers
 * events after the write's reply: the cache is then as fresh as the events and progress
 * notifications its watch brought, never "live", and reads of the latest state go to the
 * store, as upstream's cacher sends them to etcd.
 */
import type { Store, StoreEvent } from '../interface.js';
import type { StoreError } from '../interface.js';
import { compareKeys } from '../keys.js';
import { EventRing } from './event-ring.js';
import type { CacheEntry, CacheEvent, ToEntry } from './types.js';

/** How often pending waitFor calls look at the store's revision. */
const WAITER_POLL_MS = 20;

/** How long a cache whose store could not be listed waits before listing again. */
const RELIST_RETRY_MS = 1000;

/** Rows read per page while filling the cache. */
const START_PAGE = 1000;

/**
 * History bounds. Upstream's watch cache keeps at most 100 * 1024 events per resource (its
 * capacity's upper bound) and sizes itself to about 75 s of them; it has no byte bound, so a
 * resource of large objects written fast can hold gigabytes. We keep what upstream keeps by
 * count, for up to 5 minutes (so a client paused by a GC or its own restart resumes without a
 * re-list), and cap the bytes at 64 MiB per resource: an event of a 1 KiB object is charged
 * about 4 KiB (eventBytes), so that is about 16,000 events, 80 s at 200 writes/s (upstream's
 * 75 s), and a few dozen of the largest (1.5 MiB) objects. A client that falls further behind
 * gets 410 Expired and re-lists, as after a compaction.
 */
export const DEFAULT_HISTORY_MS = 5 * 60_000;
export const DEFAULT_MAX_EVENTS = 100 * 1024;
export const DEFAULT_MAX_HISTORY_BYTES = 64 * 1024 * 1024;

export interface CacherOptions {
  /** How long events are kept for watches that resume; default 5 minutes. */
  historyMs?: number;
  /** Most events kept whatever their age; default DEFAULT_MAX_EVENTS. */
  maxEvents?: number;
  /** Most bytes of events kept (as eventBytes charges them); default DEFAULT_MAX_HISTORY_BYTES. */
  maxBytes?: number;
  now?: () => number;
  /**
   * The EfficientWatchResumption gate (default on): the cache advances on the store's progress
   * notifications, not only on events, so bookmarks and resumed watches carry a fresh revision.
   */
  progressNotify?: boolean;
}

/** Receives the cache's events in revision order; returns false to be dropped (e.g. buffer full). */
export type CacheListener = (event: CacheEvent) => boolean;

export class Cacher {
  private entries = new Map<string, CacheEntry>();
  /** Keys in order, rebuilt lazily after adds and deletes (updates keep the order). */
  private sorted: string[] | undefined = [];
  private readonly ring: EventRing;
  private readonly listeners = new Set<CacheListener>();
  /** Told when the cache was filled anew from a list (its events do not say what changed meanwhile). */
  private readonly relisteners = new Set<() => void>();
  private revision = 0;
  private live = false;
  private stopWatch: (() => void) | undefined;
  private readonly waiters = new Set<{ revision: number; resolve: (ok: boolean) => void }>();
  /** Checks the waiters while there are any: another resource's write can reach their revision. */
  private waiterPoll: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private relistTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly progressNotify: boolean;

  constructor(
    private readonly store: Store,
    readonly prefix: string,
    private readonly toEntry: ToEntry,
    opts: CacherOptions = {},
  ) {
    this.ring = new EventRing(
      opts.historyMs ?? DEFAULT_HISTORY_MS,
      opts.maxEvents ?? DEFAULT_MAX_EVENTS,
      opts.now ?? Date.now,
      opts.maxBytes ?? DEFAULT_MAX_HISTORY_BYTES,
    );
    this.progressNotify = opts.progressNotify !== false;
  }

  /** Lists the store and starts the watch that keeps the cache current. */
  async start(): Promise<void> {
    this.stopped = false;
    // Filled aside and swapped in: a list that fails half-way (the store unreachable) leaves
    // the cache serving what it had.
    const entries = new Map<string, CacheEntry>();
    // Read in pages at one revision: the rows of one page at a time are alive, not the whole
    // resource's, which keeps the memory of a large start low and unfragmented.
    let page = await this.store.range(this.prefix, { limit: START_PAGE });
    const revision = page.revision;
    for (;;) {
      for (const kv of page.items) entries.set(kv.key, this.toEntry(kv, kv.modRevision));
      if (!page.more || page.items.length === 0) break;
      page = await this.store.range(this.prefix, { revision, startKey: `${page.items[page.items.length - 1].key}\u0000`, limit: START_PAGE });
    }
    this.entries = entries;
    this.sorted = undefined;
    this.revision = revision;
    this.ring.reset(revision);
    // Before any event of the new watch: what was missed while the watch was down is only in the list.
    for (const r of this.relisteners) r();
    // The store's reads run synchronously and the awaits above resumed without letting a
    // commit in, so when nothing was written meanwhile the watch starts live.
    this.live = !this.store.remote && revision === this.store.currentRevision();
    this.stopWatch?.();
    this.stopWatch = this.store.watch(
      this.prefix,
      revision,
      (events) => this.apply(events),
      (err) => this.failed(err),
      this.progressNotify ? (progress) => this.progressed(progress) : undefined,
    );
    this.resolveWaiters();
    // A local store whose commits can interleave with the list (not ours today) gets a second try.
    if (!this.live && !this.store.remote) setImmediate(() => void this.start().catch(() => {}));
  }

  /** Stops the store watch and ends every listener. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.relistTimer);
    this.stopWatch?.();
    this.listeners.clear();
    this.relisteners.clear();
    for (const w of this.waiters) w.resolve(false);
    this.waiters.clear();
  }

  /** True while the cache follows the store without lag (reads from it are as fresh as the store). */
  isLive(): boolean {
    return this.live;
  }

  /** The revision the cache is known to reflect. */
  currentRevision(): number {
    return this.live ? Math.max(this.revision, this.store.currentRevision()) : this.revision;
  }

  /** How many events the history holds, and the bytes they are charged. */
  historySize(): { events: number; bytes: number } {
    return { events: this.ring.length(), bytes: this.ring.size() };
  }

  /** Events after this revision are all in the ring (older resumes get 410). */
  oldestResumableRevision(): number {
    return this.ring.startRevision();
  }

  /** Resolves true once the cache reflects `revision`, false after timeoutMs. */
  waitFor(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.currentRevision() >= revision) return Promise.resolve(true);
    return new Promise((resolve) => {
      const w = {
        revision,
        resolve: (ok: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(w);
          if (this.waiters.size === 0 && this.waiterPoll !== undefined) {
            clearInterval(this.waiterPoll);
            this.waiterPoll = undefined;
          }
          resolve(ok);
        },
      };
      const timer = setTimeout(() => w.resolve(this.currentRevision() >= revision), timeoutMs);
      this.waiters.add(w);
      // Our own events resolve waiters at once; a revision reached by a write to another
      // resource moves only the store's counter, so look at it every few milliseconds.
      if (this.waiterPoll === undefined) {
        this.waiterPoll = setInterval(() => this.resolveWaiters(), WAITER_POLL_MS);
        this.waiterPoll.unref();
      }
    });
  }

  private resolveWaiters(): void {
    for (const w of this.waiters) if (this.currentRevision() >= w.revision) w.resolve(true);
  }

  /** Current entries under prefix (a sub-prefix of the cache's, e.g. one namespace), in key order. */
  list(prefix: string = this.prefix): CacheEntry[] {
    this.sorted ??= [...this.entries.keys()].sort(compareKeys);
    const keys = this.sorted;
    const out: CacheEntry[] = [];
    let i = prefix === this.prefix ? 0 : lowerBound(keys, prefix);
    for (; i < keys.length && keys[i].startsWith(prefix); i++) out.push(this.entries.get(keys[i]) as CacheEntry);
    return out;
  }

  /** How many objects the cache holds (apiserver_storage_objects, without a store count). */
  objectCount(): number {
    return this.entries.size;
  }

  /** One current entry. */
  get(key: string): CacheEntry | undefined {
    return this.entries.get(key);
  }

  /** Kept events with revision > after, or undefined when some were already dropped (410). */
  eventsSince(after: number): CacheEvent[] | undefined {
    return this.ring.since(after);
  }

  /** Adds a listener for every later event; returns remove(). */
  listen(listener: CacheListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Calls `relisted` each time the cache is filled from a list (at start, and again after its
   * store watch failed): an in-memory copy kept by events must then be rebuilt from `list()`.
   * Returns remove().
   */
  onRelist(relisted: () => void): () => void {
    this.relisteners.add(relisted);
    return () => this.relisteners.delete(relisted);
  }

  /** Applies one commit's events: entries, ring, listeners, waiters. */
  private apply(events: StoreEvent[]): void {
    for (const e of events) {
      const prev = this.entries.get(e.kv.key);
      let event: CacheEvent;
      if (e.type === 'delete') {
        const deleted = this.toEntry(e.prevKv ?? e.kv, e.revision);
        this.entries.delete(e.kv.key);
        this.sorted = undefined;
        event = { type: 'DELETED', revision: e.revision, entry: deleted, prev, deleted };
      } else {
        const entry = this.toEntry(e.kv, e.revision);
        if (!prev) this.sorted = undefined;
        this.entries.set(e.kv.key, entry);
        // A watcher whose selector the object stops matching sees DELETED with the old content.
        event =
          prev && e.prevKv
            ? new ModifiedEvent(e.revision, entry, prev, e.prevKv, this.toEntry)
            : { type: prev ? 'MODIFIED' : 'ADDED', revision: e.revision, entry, prev };
      }
      this.revision = e.revision;
      this.ring.push(event);
      for (const l of this.listeners) {
        if (!l(event)) this.listeners.delete(l);
      }
    }
    this.resolveWaiters();
  }

  /** The watch reports every event up to revision delivered: the cache is that fresh. */
  private progressed(revision: number): void {
    if (revision <= this.revision) return;
    this.revision = revision;
    this.resolveWaiters();
  }

  /** The store watch ended (closed, or compacted under us): re-list and resume. */
  private failed(err: StoreError): void {
    this.live = false;
    if (err.code === 'Closed') return;
    this.relist();
  }

  /** Lists again, and keeps trying every RELIST_RETRY_MS while the store cannot be read (etcd down). */
  private relist(): void {
    if (this.stopped) return;
    this.start().catch(() => {
      if (this.stopped) return;
      this.relistTimer = setTimeout(() => this.relist(), RELIST_RETRY_MS);
      this.relistTimer.unref();
    });
  }
}

/** First index whose key is >= prefix. */
function lowerBound(keys: string[], prefix: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keys[mid], prefix) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A MODIFIED event whose DELETED form (the previous object stamped with this revision) is
 * encoded only when a watcher needs it. A class, not a getter defined on each event: V8 gives
 * every object with its own accessor a dictionary of its own, and every update's event was one.
 */
class ModifiedEvent implements CacheEvent {
  readonly type = 'MODIFIED';
  lines?: Partial<Record<string, Buffer>>;
  private deletedEntry: CacheEntry | undefined;

  constructor(
    readonly revision: number,
    readonly entry: CacheEntry,
    readonly prev: CacheEntry,
    private prevKv: StoreEvent['kv'] | undefined,
    private readonly toEntry: ToEntry,
  ) {}

  get deleted(): CacheEntry | undefined {
    if (this.deletedEntry === undefined && this.prevKv !== undefined) {
      this.deletedEntry = this.toEntry(this.prevKv, this.revision);
      this.prevKv = undefined;
    }
    return this.deletedEntry;
  }
}
