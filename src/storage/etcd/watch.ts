/**
 * One Store watch on an etcd watch: events from `fromRevision + 1` with previous values, as
 * upstream's watcher (prevKV builds DELETED objects and the old object for selector changes),
 * and etcd's progress notifications passed on so a watch cache knows how fresh it is.
 *
 * When the client's watch stream is lost it creates the watcher again on a new one, from the
 * revision this watch asks for: the first one not yet delivered (a replay may still repeat
 * what was delivered, which is dropped here).
 */
import { type KeyValue, StoreError, type StoreEvent, type WatchErrorSink, type WatchProgressSink, type WatchSink } from '../interface.js';
import { fromEtcdRevision, type KeySpace, toEtcdRevision } from './layout.js';
import type { EtcdClient } from './wire/etcd-client.js';
import type { WatchEvent, WatchResponse } from './wire/watch-messages.js';

export interface EtcdWatchHooks {
  /** Every revision seen in a response header (the store's view of etcd's counter). */
  observe(revision: number): void;
  /** A compaction the watch was told about. */
  compacted(revision: number): void;
  /** The watch ended; the store forgets it. */
  ended(w: EtcdWatch): void;
}

export class EtcdWatch {
  private stop: (() => void) | undefined;
  private done = false;
  /** The newest revision whose events were all delivered. */
  private delivered: number;

  constructor(
    client: EtcdClient,
    private readonly keys: KeySpace,
    readonly prefix: string,
    fromRevision: number,
    private readonly sink: WatchSink,
    private readonly onError: WatchErrorSink | undefined,
    private readonly onProgress: WatchProgressSink | undefined,
    private readonly hooks: EtcdWatchHooks,
  ) {
    this.delivered = fromRevision;
    // A prefix with no possible key (past the keyspace's end) watches an empty range.
    const { start, end } = keys.range(prefix) ?? { start: keys.key(prefix), end: keys.key(prefix) };
    this.stop = client.watch({
      request: () => ({ key: start, range_end: end, start_revision: toEtcdRevision(this.delivered + 1), prev_kv: true, progress_notify: true }),
      onResponse: (res) => this.receive(res),
    });
  }

  /** Stops delivery; the etcd watch is cancelled in the background. */
  cancel(): void {
    if (this.done) return;
    this.done = true;
    this.hooks.ended(this);
    const stop = this.stop;
    this.stop = undefined;
    stop?.();
  }

  /** Ends the watch with err (once). */
  fail(err: StoreError): void {
    if (this.done) return;
    this.cancel();
    this.onError?.(err);
  }

  private receive(res: WatchResponse): void {
    if (this.done) return;
    const headerRevision = fromEtcdRevision(res.header.revision);
    this.hooks.observe(headerRevision);
    if (res.canceled) {
      // etcd refused or ended the watcher: the client no longer knows it.
      this.stop = undefined;
      // etcd cancels a watch whose start revision was compacted with compact_revision set.
      if (res.compact_revision !== 0) {
        this.hooks.compacted(fromEtcdRevision(res.compact_revision));
        this.fail(new StoreError('Compacted', this.prefix, `watch from revision ${this.delivered}: etcdserver: mvcc: required revision has been compacted`));
      } else this.fail(new StoreError('Closed', this.prefix, `watch ended: etcd canceled the watch: ${res.cancel_reason}`));
      return;
    }
    if (res.created) return;
    if (res.compact_revision !== 0) this.hooks.compacted(fromEtcdRevision(res.compact_revision));
    const events: StoreEvent[] = [];
    for (const ev of res.events) {
      const e = this.event(ev);
      // A resume after a reconnect may repeat what was delivered before it.
      if (e.revision > this.delivered) events.push(e);
    }
    if (events.length > 0) {
      this.delivered = events[events.length - 1].revision;
      try {
        this.sink(events);
      } catch {
        // A sink that throws ends only its own watch.
        this.fail(new StoreError('Closed', this.prefix, 'the watch sink failed'));
        return;
      }
    } else if (res.events.length === 0 && headerRevision > this.delivered) {
      // A progress notification: etcd sends it only to a watcher that has caught up, so every
      // event up to the header's revision has been delivered.
      this.delivered = headerRevision;
      try {
        this.onProgress?.(headerRevision);
      } catch {
        this.fail(new StoreError('Closed', this.prefix, 'the watch progress sink failed'));
        return;
      }
    }
  }

  private event(ev: WatchEvent): StoreEvent {
    const prevKv: KeyValue | undefined = ev.prev_kv ? this.keys.keyValue(ev.prev_kv) : undefined;
    if (ev.type === 'Delete') {
      const revision = fromEtcdRevision(ev.kv.mod_revision);
      // etcd's delete event carries only the key; the Store's carries the last value at the delete's revision.
      const kv: KeyValue = prevKv
        ? { ...prevKv, modRevision: revision }
        : { key: this.keys.storeKey(ev.kv.key), value: new Uint8Array(0), createRevision: 0, modRevision: revision };
      return { type: 'delete', kv, prevKv, revision };
    }
    const kv = this.keys.keyValue(ev.kv);
    return { type: 'put', kv, prevKv, revision: kv.modRevision };
  }
}
