/**
 * Watches straight from the store: synthetic ADDED events for the initial state (when the
 * watch starts without a resourceVersion or at `0`), then every change, with selector
 * transitions as upstream (an object that stops matching arrives as DELETED, one that starts
 * matching as ADDED).
 */
import type { Store, StoreEvent } from '../storage/interface.js';
import type { Obj } from '../machinery/object.js';
import { badRequest, gone, type Status } from '../machinery/status.js';
import { metaOf } from '../machinery/object.js';
import { listPrefix, type ResourceInfo } from './resource-info.js';
import type { ListOptions } from './context.js';
import type { Selection } from './selection.js';
import type { GenericStore } from './generic-store.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchSink {
  /** One event; the sink must not block. */
  event(type: WatchEventType, object: Obj | Status): void;
  /** The watch ended from the server side (error already sent as an ERROR event). */
  end(): void;
}

/** Starts a watch; returns the function that stops it. */
export async function watchObjects(
  registry: GenericStore,
  store: Store,
  info: ResourceInfo,
  namespace: string,
  opts: ListOptions,
  selection: Selection,
  sink: WatchSink,
): Promise<() => void> {
  const prefix = listPrefix(info, namespace);
  const rv = opts.resourceVersion ?? '';
  let from: number;
  if (rv === '' || rv === '0') {
    const initial = await store.range(prefix);
    for (const kv of initial.items) {
      const obj = registry.decode(kv);
      if (selection.matches(obj)) sink.event('ADDED', obj);
    }
    from = initial.revision;
  } else {
    from = Number(rv);
    if (!Number.isSafeInteger(from) || from < 0) throw badRequest(`invalid resource version: ${rv}`);
  }
  let stopped = false;
  const cancel = store.watch(
    prefix,
    from,
    (events) => {
      if (stopped) return;
      for (const e of events) deliver(registry, e, selection, sink);
    },
    (err) => {
      if (stopped) return;
      const status = gone(`too old resource version: ${from} (${store.compactedRevision()})`).toStatus();
      void err;
      sink.event('ERROR', status);
      stopped = true;
      sink.end();
    },
  );
  return () => {
    stopped = true;
    cancel();
  };
}

/** Turns one store event into the watch event this watcher should see, if any. */
function deliver(registry: GenericStore, e: StoreEvent, selection: Selection, sink: WatchSink): void {
  const prev = e.prevKv ? registry.decode(e.prevKv) : undefined;
  const prevMatch = prev !== undefined && selection.matches(prev);
  if (e.type === 'delete') {
    if (!prevMatch || prev === undefined) return;
    metaOf(prev).resourceVersion = String(e.revision);
    sink.event('DELETED', prev);
    return;
  }
  const obj = registry.decode(e.kv);
  const match = selection.matches(obj);
  if (match && prevMatch) sink.event('MODIFIED', obj);
  else if (match) sink.event('ADDED', obj);
  else if (prevMatch) sink.event('DELETED', obj);
}
