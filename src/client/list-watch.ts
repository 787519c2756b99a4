/**
 * The list-then-watch loop of a controller (client-go's reflector, reduced): list a collection,
 * hand over its items, watch from the list's resourceVersion, and list again whenever the watch
 * ends or reports an error (expired resourceVersion), after a pause when the server failed.
 */
import type { RestClient, WatchEvent } from './rest-client.js';

export interface ListWatchHandlers<T> {
  /** Every object of a (re)list: what the caller knew before is replaced by these. */
  onList(items: T[]): void;
  /** One watch event; only ADDED, MODIFIED and DELETED reach here. */
  onEvent(type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: T): void;
}

export interface ListWatch {
  stop(): void;
}

interface ListBody<T> {
  metadata?: { resourceVersion?: string };
  items?: T[];
}

/** Accept headers of a list and its watch, when not the client's own. */
export interface ListWatchAccept {
  list: string;
  watch: string;
}

/**
 * The Accept headers of client-go's metadata informers: objects as PartialObjectMetadata(List)
 * of the brand's meta group (`meta.orch.io`), so a list of large objects carries only their
 * metadata.
 */
export function metadataOnly(metaGroup: string): ListWatchAccept {
  return {
    list: `application/json;as=PartialObjectMetadataList;g=${metaGroup};v=v1, application/json`,
    watch: `application/json;as=PartialObjectMetadata;g=${metaGroup};v=v1, application/json`,
  };
}

/** Starts the loop on `path` (a collection URL); runs until stopped. */
export function listAndWatch<T>(client: RestClient, path: string, handlers: ListWatchHandlers<T>, retryMs = 500, accept?: ListWatchAccept): ListWatch {
  let stopped = false;
  let stopWatch: (() => void) | undefined;
  let pause: NodeJS.Timeout | undefined;
  const sep = path.includes('?') ? '&' : '?';
  const run = async () => {
    while (!stopped) {
      try {
        const list = await client.request<ListBody<T>>('GET', path, undefined, undefined, accept?.list);
        if (list.status !== 200) throw new Error(`list ${path}: HTTP ${list.status}`);
        if (stopped) return;
        handlers.onList(list.body.items ?? []);
        const rv = encodeURIComponent(list.body.metadata?.resourceVersion ?? '');
        await client.watch(
          `${path}${sep}watch=true&resourceVersion=${rv}`,
          (e: WatchEvent) => {
            if (e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED') handlers.onEvent(e.type, e.object as T);
            // A Status (410 Gone for an expired resourceVersion): the next list catches up.
            else if (e.type === 'ERROR') stopWatch?.();
          },
          (stop) => {
            stopWatch = stop;
            if (stopped) stop();
          },
          undefined,
          accept?.watch,
        );
      } catch {
        if (stopped) return;
        await new Promise<void>((r) => {
          pause = setTimeout(r, retryMs);
        });
      }
    }
  };
  void run();
  return {
    stop() {
      stopped = true;
      stopWatch?.();
      if (pause) clearTimeout(pause);
    },
  };
}
