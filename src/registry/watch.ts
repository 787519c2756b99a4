/**
 * Watches served from the watch cache: the initial state (synthetic ADDED events) when the
 * plan asks for it, then every later change as an encoded watch line shared by all watchers,
 * with selector transitions as upstream (an object that stops matching arrives as DELETED with
 * its previous content, one that starts matching as ADDED).
 */
import type { CacheEntry, CacheEvent } from '../storage/cacher/types.js';
import { watchEventLine, type WatchEventType } from '../codec/watch-event.js';
import { gone, type Status } from '../machinery/status.js';
import { listPrefix } from './resource-info.js';
import type { Selection } from './selection.js';
import type { GenericStore } from './generic-store.js';
import type { WatchPlan } from './read-options.js';

export type { WatchEventType };

export interface WatchStart {
  /** Entries to send as ADDED first (empty when the plan starts at an exact revision). */
  initial: CacheEntry[];
  /** Revision of the initial state; every later line has a higher one. */
  revision: number;
  /** A resume's kept events after `revision` this watcher sees, as encoded (shared) lines, in order. */
  backlog: Buffer[];
  /** Set when the requested revision is older than the kept history: send it as an ERROR event and end. */
  expired?: Status;
  /**
   * Starts delivery of every line after the backlog, in order; `onLine` returning false stops it.
   * Call it in the same turn as startWatch so no event is missed.
   */
  subscribe(onLine: (line: Buffer) => boolean): () => void;
}

/** Upstream's message for a watch resuming before the kept history. */
export function tooOldResourceVersion(requested: number, oldest: number): Status {
  return gone(`too old resource version: ${requested} (${oldest})`).toStatus();
}

/** Prepares a watch; throws (504, 422...) before anything is sent when it cannot start. */
export async function startWatch(gs: GenericStore, namespace: string, plan: WatchPlan, selection: Selection): Promise<WatchStart> {
  const cache = gs.cache;
  if (!cache) throw new Error(`${gs.info.plural} has no watch cache`);
  const prefix = listPrefix(gs.info, namespace);
  const from = plan.from;
  if (from.kind === 'notOlderThan' || from.kind === 'exact') await gs.waitForRevision(from.revision);
  let revision: number;
  const backlog: Buffer[] = [];
  let initial: CacheEntry[] = [];
  if (from.kind === 'exact') {
    const since = cache.eventsSince(from.revision);
    if (since === undefined) {
      return {
        initial: [],
        backlog: [],
        revision: from.revision,
        expired: tooOldResourceVersion(from.revision, cache.oldestResumableRevision()),
        subscribe: () => () => {},
      };
    }
    // Lines, not events: the client reads them at its own pace, and they are shared with every watcher.
    for (const e of since) {
      const line = e.entry.key.startsWith(prefix) ? lineFor(e, selection) : undefined;
      if (line !== undefined) backlog.push(line);
    }
    revision = from.revision;
  } else {
    revision = cache.currentRevision();
    if (plan.initialEvents) {
      const all = cache.list(prefix);
      initial = selection.everything ? all : all.filter((e) => selection.matchesEntry(e));
    }
  }
  return {
    initial,
    backlog,
    revision,
    subscribe(onLine) {
      let active = true;
      const deliver = (event: CacheEvent): boolean => {
        if (!active) return false;
        if (!event.entry.key.startsWith(prefix)) return true;
        const line = lineFor(event, selection);
        if (line === undefined) return true;
        if (!onLine(line)) active = false;
        return active;
      };
      const remove = cache.listen(deliver);
      return () => {
        active = false;
        remove();
      };
    },
  };
}

/** The line this watcher sees for an event, or undefined when it sees nothing. */
function lineFor(event: CacheEvent, selection: Selection): Buffer | undefined {
  if (selection.everything) return watchLine(event, event.type, event.entry);
  if (event.type === 'DELETED') return selection.matchesEntry(event.entry) ? watchLine(event, 'DELETED', event.entry) : undefined;
  const now = selection.matchesEntry(event.entry);
  const before = event.prev !== undefined && selection.matchesEntry(event.prev);
  if (now && before) return watchLine(event, 'MODIFIED', event.entry);
  if (now) return watchLine(event, 'ADDED', event.entry);
  if (before && event.deleted) return watchLine(event, 'DELETED', event.deleted);
  return undefined;
}

/** The watch line of an event as `type`, encoded once per type and shared by every watcher. */
export function watchLine(event: CacheEvent, type: 'ADDED' | 'MODIFIED' | 'DELETED', entry: CacheEntry): Buffer {
  event.lines ??= {};
  const hit = event.lines[type];
  if (hit) return hit;
  const line = watchEventLine(type, entry.json);
  event.lines[type] = line;
  return line;
}
