/**
 * The store as the API server's registry sees it, timing each storage operation into
 * etcd_request_duration_seconds{operation,type} whatever the backend (SQLite, memory or etcd),
 * as upstream's etcd3 store records each call. The type is the stored object's Go type name as
 * upstream prints it (`*core.Pod`, `*apps.Deployment`), found from the key's resource prefix
 * once per prefix.
 */
import type { MetricChild } from '../machinery/metrics.js';
import type { KeyValue, RangeOptions, RangeResult, Store, WatchErrorSink, WatchProgressSink, WatchSink } from '../storage/interface.js';
import type { ApiServerMetrics } from './metrics.js';

type Operation = 'get' | 'list' | 'create' | 'update' | 'delete';

/** What a key's prefix stores: the type label of its objects ('' when the prefix is unknown). */
export type TypeOfPrefix = (prefix: string) => string | undefined;

/** Wraps store so every read and write is timed; typeOf names a resource prefix's type. */
export function instrumentStore(store: Store, metrics: ApiServerMetrics, typeOf: TypeOfPrefix): Store {
  // operation → key prefix → child: a few map lookups per storage call, no label building.
  const children = new Map<Operation, Map<string, MetricChild>>();
  const child = (op: Operation, key: string): MetricChild => {
    const prefix = resourcePrefix(key);
    let byPrefix = children.get(op);
    if (byPrefix === undefined) children.set(op, (byPrefix = new Map()));
    let c = byPrefix.get(prefix);
    if (c === undefined) {
      c = metrics.etcdRequestDuration.child([op, typeOf(prefix) ?? '']);
      // Keys outside any resource (health checks) share one series; the map stays bounded.
      if (typeOf(prefix) !== undefined) byPrefix.set(prefix, c);
    }
    return c;
  };
  const timed = <T>(op: Operation, key: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const record = () => child(op, key).observe((performance.now() - started) / 1000);
    return run().finally(record);
  };
  const wrapped: Store = {
    get remote() {
      return store.remote;
    },
    get: (key: string, opts?: { revision?: number }): Promise<KeyValue | undefined> => timed('get', key, () => store.get(key, opts)),
    range: (prefix: string, opts?: RangeOptions): Promise<RangeResult> => timed('list', prefix, () => store.range(prefix, opts)),
    create: (key: string, value: Uint8Array) => timed('create', key, () => store.create(key, value)),
    update: (key: string, value: Uint8Array, expected: number) => timed('update', key, () => store.update(key, value, expected)),
    delete: (key: string, expected?: number) => timed('delete', key, () => store.delete(key, expected)),
    watch: (prefix: string, from: number, sink: WatchSink, onError?: WatchErrorSink, onProgress?: WatchProgressSink) =>
      store.watch(prefix, from, sink, onError, onProgress),
    currentRevision: () => store.currentRevision(),
    compactedRevision: () => store.compactedRevision(),
    dbSize: () => store.dbSize(),
    compact: (revision: number) => store.compact(revision),
    close: () => store.close(),
  };
  if (store.expireUnder) wrapped.expireUnder = (prefix, ttlMs) => store.expireUnder?.(prefix, ttlMs);
  return wrapped;
}

/** `/registry/<resource>/` of a key (or the key itself when it has no such segment). */
function resourcePrefix(key: string): string {
  const second = key.indexOf('/', 1);
  if (second < 0) return key;
  const third = key.indexOf('/', second + 1);
  return third < 0 ? key : key.slice(0, third + 1);
}
