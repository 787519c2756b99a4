/**
 * What the watch cache keeps per object and per event. The cache is type-agnostic: the
 * registry supplies `toEntry`, which turns a stored key-value into the served bytes plus the
 * few attributes selectors need, so lists and watches never decode or re-encode an object.
 */
import type { KeyValue } from '../interface.js';

export interface CacheEntry {
  key: string;
  /** Revision of the last write (the object's resourceVersion). */
  modRevision: number;
  /** The object as served, in compact JSON, resourceVersion included. Shared: never mutate. */
  json: Buffer;
  /**
   * The length of json when it is known (or closely estimated) without producing it: an entry
   * encoded only on first read gives its stored size, so the cache's accounting does not encode it.
   */
  readonly jsonBytes?: number;
  /** metadata.labels, for label selectors. */
  labels: Readonly<Record<string, string>> | undefined;
  /** Values of the type's field-selector fields, for field selectors. */
  fields: Readonly<Record<string, string>>;
}

export type CacheEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface CacheEvent {
  type: CacheEventType;
  revision: number;
  /** The object after the event; for DELETED, the last state with resourceVersion = revision. */
  entry: CacheEntry;
  /** The object before the event (absent for ADDED). */
  prev?: CacheEntry;
  /** The previous object stamped with this event's revision: what a DELETED line carries. */
  deleted?: CacheEntry;
  /** Encoded watch lines by event type (a watcher may see MODIFIED as ADDED/DELETED). */
  lines?: Partial<Record<string, Buffer>>;
}

/** Turns a stored key-value (at the given revision, for deletes) into a cache entry. */
export type ToEntry = (kv: KeyValue, revision: number) => CacheEntry;

/** A filter over cache entries (a compiled label + field selection). */
export type EntryFilter = (entry: CacheEntry) => boolean;
