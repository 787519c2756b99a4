/**
 * The store contract, modelled on etcd v3's MVCC key-value API. Nothing here knows HTTP,
 * resource types or strategies: keys are strings, values are opaque bytes, and every write
 * gets the next revision of one global counter.
 */

export interface KeyValue {
  key: string;
  value: Uint8Array;
  /** Revision that created this incarnation of the key. */
  createRevision: number;
  /** Revision of the last write to the key. */
  modRevision: number;
}

export type StoreEventType = 'put' | 'delete';

export interface StoreEvent {
  type: StoreEventType;
  /** The key as it is after the event; for a delete its value is the last value before it. */
  kv: KeyValue;
  /** The previous value (absent for a create). */
  prevKv?: KeyValue;
  /** Revision of this event (kv.modRevision for puts, the delete's revision for deletes). */
  revision: number;
}

export interface RangeOptions {
  /** Read as of this revision (0 or absent: current). Older than the compacted revision: Compacted error. */
  revision?: number;
  /** Start at this key (inclusive), for pagination. */
  startKey?: string;
  /** Return at most this many items (0 or absent: all). */
  limit?: number;
}

export interface RangeResult {
  items: KeyValue[];
  /** The revision the range was read at. */
  revision: number;
  /** True when more keys under the prefix follow the last returned item. */
  more: boolean;
  /** Number of keys under the prefix from startKey on, at that revision. */
  count: number;
}

/**
 * Why a store operation failed; registry maps these to Status errors in one place.
 * NoSpace and RequestTooLarge are etcd's quota and request-size refusals (see limits.ts);
 * Unavailable is a remote store (etcd) that could not be reached or did not answer in time.
 */
export type StoreErrorCode =
  | 'KeyExists'
  | 'KeyNotFound'
  | 'Conflict'
  | 'Compacted'
  | 'FutureRevision'
  | 'Closed'
  | 'NoSpace'
  | 'RequestTooLarge'
  | 'Unavailable';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    readonly key: string,
    message?: string,
    /** For Conflict: the current value, so callers can retry without another read. */
    readonly current?: KeyValue,
  ) {
    super(message ?? `${code}: ${key}`);
  }
}

export type WatchSink = (events: StoreEvent[]) => void;

/** Called once when a watch can no longer continue (e.g. its start revision was compacted). */
export type WatchErrorSink = (err: StoreError) => void;

/**
 * Told that every event under the watch's prefix up to `revision` has been delivered (etcd's
 * progress notification), so a watch cache knows it is that fresh though none of its keys changed.
 */
export type WatchProgressSink = (revision: number) => void;

export interface Store {
  /**
   * True when other processes write to the store too (etcd): watch events then arrive after the
   * write's reply, so a watch cache is only as fresh as the events and progress it was sent,
   * never known to be as fresh as currentRevision(), and reads of the latest state go to the store.
   */
  readonly remote?: boolean;
  /** The current value of key, or as of `revision`. */
  get(key: string, opts?: { revision?: number }): Promise<KeyValue | undefined>;
  /** Keys starting with prefix, in key order. */
  range(prefix: string, opts?: RangeOptions): Promise<RangeResult>;
  /** Create key if absent; resolves to the new revision. Rejects with KeyExists. */
  create(key: string, value: Uint8Array): Promise<number>;
  /** Compare-and-swap on modRevision; resolves to the new revision. Rejects with Conflict or KeyNotFound. */
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<number>;
  /** Delete key (only if its modRevision matches when given); resolves to the delete's revision. */
  delete(key: string, expectedModRevision?: number): Promise<number>;
  /**
   * Deliver every event under prefix with revision > fromRevision, in revision order, then
   * live events. Events are batched per commit. Returns a function that cancels the watch.
   * A fromRevision older than the compacted revision calls onError with Compacted.
   */
  watch(prefix: string, fromRevision: number, sink: WatchSink, onError?: WatchErrorSink, onProgress?: WatchProgressSink): () => void;
  /**
   * Makes every later put (create or update) of a key under prefix expire ttlMs after that put,
   * as upstream's etcd lease on each event. Stores that have it (etcd) expire keys even when no
   * server runs; without it the registry sweeps expired keys itself.
   */
  expireUnder?(prefix: string, ttlMs: number): void;
  /** The revision of the last committed write. */
  currentRevision(): number;
  /** The oldest revision whose history is still kept (history before it was compacted). */
  compactedRevision(): number;
  /**
   * Bytes the stored data takes, as counted against StoreLimits.quotaBackendBytes (current
   * values and the history not yet compacted). Cheap: a running total, never a scan.
   */
  dbSize(): number;
  /** Drop history older than revision (current values are always kept). */
  compact(revision: number): Promise<void>;
  /** Flush and release resources; later calls reject with Closed. */
  close(): Promise<void>;
}
