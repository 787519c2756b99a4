/**
 * An in-memory Store with the same semantics as the SQLite store, for unit tests.
 *
 * Each key keeps a list of versions (a put, or a tombstone for a delete) in revision order;
 * a read at revision R takes the newest version <= R. Compaction to C keeps, per key, the
 * newest version <= C when it is a put (it is still the value for reads at C and later) and
 * drops everything older, exactly like the SQLite log. The event log keeps revisions >= C for
 * watches.
 *
 * Values are copied on write; values handed out (get/range/watch) must not be mutated.
 */

import {
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type Store,
  StoreError,
  type StoreEvent,
  type WatchErrorSink,
  type WatchSink,
} from '../interface.js';
import { compareKeys } from '../keys.js';
import { putCost, refusePut, resolveLimits, type StoreLimits } from '../limits.js';
import { WatchHub, type WatchHubOptions } from '../watch-hub.js';

interface Version {
  revision: number;
  /** Undefined for a tombstone (the key was deleted at this revision). */
  kv?: KeyValue;
}

export interface MemoryStoreOptions extends StoreLimits {
  /** Watch replay paging (tests use tiny pages to exercise multi-step replay). */
  watch?: WatchHubOptions;
}

export class MemoryStore implements Store {
  private rev = 0;
  private compacted = 0;
  private closed = false;
  private readonly current = new Map<string, KeyValue>();
  private readonly versions = new Map<string, Version[]>();
  /** events[i] has revision logStart + i: one event per revision, no gaps. */
  private events: StoreEvent[] = [];
  private logStart = 1;
  private readonly hub: WatchHub;
  private readonly limits: Required<StoreLimits>;
  /** Bytes of every kept version (put: key and value; tombstone: key), kept as a running total. */
  private size = 0;

  constructor(opts: MemoryStoreOptions = {}) {
    this.limits = resolveLimits(opts);
    this.hub = new WatchHub(
      {
        history: (prefix, after, upTo, limit) => this.history(prefix, after, upTo, limit),
        currentRevision: () => this.rev,
        compactedRevision: () => this.compacted,
      },
      opts.watch,
    );
  }

  /** Resolves to the value of key at the requested revision (current when absent or 0). */
  async get(key: string, opts: { revision?: number } = {}): Promise<KeyValue | undefined> {
    const at = this.readRevision(key, opts.revision);
    if (at === this.rev) return this.current.get(key);
    return versionAt(this.versions.get(key), at);
  }

  /** Resolves to the keys under prefix at one revision, in key order, paginated by startKey/limit. */
  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const at = this.readRevision(prefix, opts.revision);
    const from = opts.startKey !== undefined && compareKeys(opts.startKey, prefix) > 0 ? opts.startKey : prefix;
    const all: KeyValue[] = [];
    if (at === this.rev) {
      for (const [key, kv] of this.current) if (key.startsWith(prefix) && compareKeys(key, from) >= 0) all.push(kv);
    } else {
      for (const [key, list] of this.versions) {
        if (!key.startsWith(prefix) || compareKeys(key, from) < 0) continue;
        const kv = versionAt(list, at);
        if (kv) all.push(kv);
      }
    }
    all.sort((a, b) => compareKeys(a.key, b.key));
    const limit = opts.limit && opts.limit > 0 ? opts.limit : all.length;
    return { items: all.slice(0, limit), revision: at, more: all.length > limit, count: all.length };
  }

  /** Resolves to the new revision; rejects with KeyExists when key is present. */
  async create(key: string, value: Uint8Array): Promise<number> {
    this.checkOpen(key);
    this.checkLimits(key, value);
    if (this.current.has(key)) throw new StoreError('KeyExists', key);
    const rev = this.rev + 1;
    const kv: KeyValue = { key, value: new Uint8Array(value), createRevision: rev, modRevision: rev };
    this.commit({ type: 'put', kv, revision: rev });
    return rev;
  }

  /** Resolves to the new revision; rejects with KeyNotFound, or Conflict (with the current value). */
  async update(key: string, value: Uint8Array, expectedModRevision: number): Promise<number> {
    this.checkOpen(key);
    this.checkLimits(key, value);
    const prev = this.current.get(key);
    if (!prev) throw new StoreError('KeyNotFound', key);
    if (prev.modRevision !== expectedModRevision) {
      throw new StoreError('Conflict', key, `Conflict: ${key} is at ${prev.modRevision}, not ${expectedModRevision}`, prev);
    }
    const rev = this.rev + 1;
    const kv: KeyValue = { key, value: new Uint8Array(value), createRevision: prev.createRevision, modRevision: rev };
    this.commit({ type: 'put', kv, prevKv: prev, revision: rev });
    return rev;
  }

  /** Resolves to the delete's revision; rejects with KeyNotFound, or Conflict when expectedModRevision differs. */
  async delete(key: string, expectedModRevision?: number): Promise<number> {
    this.checkOpen(key);
    const prev = this.current.get(key);
    if (!prev) throw new StoreError('KeyNotFound', key);
    if (expectedModRevision !== undefined && prev.modRevision !== expectedModRevision) {
      throw new StoreError('Conflict', key, `Conflict: ${key} is at ${prev.modRevision}, not ${expectedModRevision}`, prev);
    }
    const rev = this.rev + 1;
    // A delete event carries the last value, stamped with the delete's revision (see interface.ts).
    const kv: KeyValue = { ...prev, modRevision: rev };
    this.commit({ type: 'delete', kv, prevKv: prev, revision: rev });
    return rev;
  }

  /** Replays events under prefix after fromRevision, then streams live ones, one batch per write. */
  watch(prefix: string, fromRevision: number, sink: WatchSink, onError?: WatchErrorSink): () => void {
    if (this.closed) {
      queueMicrotask(() => onError?.(new StoreError('Closed', prefix)));
      return () => {};
    }
    return this.hub.watch(prefix, fromRevision, sink, onError);
  }

  /** The revision of the last committed write (0 before the first). */
  currentRevision(): number {
    return this.rev;
  }

  /** Reads and watches below this revision fail with Compacted. */
  compactedRevision(): number {
    return this.compacted;
  }

  /** The running total of the bytes of every kept version. */
  dbSize(): number {
    return this.size;
  }

  /** Drops history older than revision; reads at revision >= it keep working. */
  async compact(revision: number): Promise<void> {
    this.checkOpen('');
    if (revision > this.rev) throw new StoreError('FutureRevision', '', `compact to ${revision}: current revision is ${this.rev}`);
    if (revision <= this.compacted) return;
    this.compacted = revision;
    const drop = Math.max(0, revision - this.logStart);
    this.events = this.events.slice(drop);
    this.logStart += drop;
    for (const [key, list] of this.versions) {
      const kept = compactVersions(list, revision);
      for (let i = 0; i < list.length - kept.length; i++) this.size -= versionCost(key, list[i]);
      if (kept.length === 0) this.versions.delete(key);
      else if (kept !== list) this.versions.set(key, kept);
    }
  }

  /** Ends every watch with Closed; later calls reject with Closed. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.hub.close(new StoreError('Closed', '', 'store closed'));
  }

  private commit(event: StoreEvent): void {
    const { kv, revision } = event;
    this.rev = revision;
    if (event.type === 'put') this.current.set(kv.key, kv);
    else this.current.delete(kv.key);
    let list = this.versions.get(kv.key);
    if (!list) {
      list = [];
      this.versions.set(kv.key, list);
    }
    const version: Version = event.type === 'put' ? { revision, kv } : { revision };
    list.push(version);
    this.size += versionCost(kv.key, version);
    this.events.push(event);
    this.hub.publish([event]);
  }

  private history(prefix: string, after: number, upTo: number, limit: number): StoreEvent[] {
    const out: StoreEvent[] = [];
    const end = Math.min(this.events.length, upTo + 1 - this.logStart);
    for (let i = Math.max(0, after + 1 - this.logStart); i < end && out.length < limit; i++) {
      const e = this.events[i];
      if (e.kv.key.startsWith(prefix)) out.push(e);
    }
    return out;
  }

  private readRevision(key: string, revision: number | undefined): number {
    this.checkOpen(key);
    if (!revision) return this.rev;
    if (revision > this.rev) throw new StoreError('FutureRevision', key, `revision ${revision} is after the current revision ${this.rev}`);
    if (revision < this.compacted) throw new StoreError('Compacted', key, `revision ${revision} is before the compacted revision ${this.compacted}`);
    return revision;
  }

  private checkLimits(key: string, value: Uint8Array): void {
    const refused = refusePut(key, value, this.size, this.limits);
    if (refused) throw refused;
  }

  private checkOpen(key: string): void {
    if (this.closed) throw new StoreError('Closed', key, 'store closed');
  }
}

/** What a version counts against the quota. */
function versionCost(key: string, version: Version): number {
  return version.kv ? putCost(key, version.kv.value) : Buffer.byteLength(key);
}

/** The put visible at revision `at` (binary search over ascending versions), or undefined. */
function versionAt(list: Version[] | undefined, at: number): KeyValue | undefined {
  if (!list) return undefined;
  let lo = 0;
  let hi = list.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].revision <= at) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found < 0 ? undefined : list[found].kv;
}

/** Keeps the versions reads at revision >= c can still see: the newest put <= c, and all newer. */
function compactVersions(list: Version[], c: number): Version[] {
  let newestAtOrBefore = -1;
  for (let i = 0; i < list.length && list[i].revision <= c; i++) newestAtOrBefore = i;
  if (newestAtOrBefore < 0) return list;
  // A tombstone as the newest version <= c reads the same as no version at all.
  const keepFrom = list[newestAtOrBefore].kv ? newestAtOrBefore : newestAtOrBefore + 1;
  return keepFrom === 0 ? list : list.slice(keepFrom);
}
