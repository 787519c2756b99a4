/**
 * One Store watch on an etcd watch: events from `fromRevision + 1` with previous values, as
 * upstream's watcher (prevKV builds DELETED objects and the old object for selector changes),
 * and etcd's progress notifications passed on so a watch cache knows how fresh it is.
 *
 * etcd3 (npm) re-attaches its watchers after a lost connection, resuming from a revision it
 * takes from response headers; during a replay that can be past events not yet delivered, so
 * we set the resume point ourselves from the last revision actually delivered.
 */
import type { Etcd3, IEvent, IWatchResponse, Watcher } from 'etcd3';
import { Range } from 'etcd3';
import { type KeyValue, StoreError, type StoreEvent, type WatchErrorSink, type WatchProgressSink, type WatchSink } from '../interface.js';
import { isCompactedError } from './errors.js';
import { fromEtcdRevision, type KeySpace, toEtcdRevision } from './layout.js';

export interface EtcdWatchHooks {
  /** Every revision seen in a response header (the store's view of etcd's counter). */
  observe(revision: number): void;
  /** A compaction the watch was told about. */
  compacted(revision: number): void;
  /** The watch ended; the store forgets it. */
  ended(w: EtcdWatch): void;
}

export class EtcdWatch {
  private watcher: Watcher | undefined;
  private done = false;
  /** The newest revision whose events were all delivered. */
  private delivered: number;

  constructor(
    client: Etcd3,
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
    const watcher = client
      .watch()
      .inRange(new Range(start, end))
      .startRevision(String(toEtcdRevision(fromRevision + 1)))
      .withPreviousKV()
      .watcher();
    this.watcher = watcher;
    watcher.on('data', (res: IWatchResponse) => this.receive(res));
    watcher.on('connected', (res: IWatchResponse) => {
      if (res?.header) hooks.observe(fromEtcdRevision(res.header.revision));
      this.resumeFromDelivered();
    });
    // Lost connections are retried by etcd3 with backoff; the watch resumes where it was.
    watcher.on('disconnected', () => {});
    watcher.on('error', (err: unknown) => {
      // etcd3 has already dropped a watcher it reports cancelled: cancelling it again would
      // make etcd answer for a watch id etcd3 no longer knows, which etcd3 throws on.
      this.watcher = undefined;
      if (isCompactedCancel(err))
        this.fail(new StoreError('Compacted', prefix, `watch from revision ${this.delivered}: etcdserver: mvcc: required revision has been compacted`));
      else this.fail(new StoreError('Closed', prefix, `watch ended: ${err instanceof Error ? err.message : String(err)}`));
    });
  }

  /** Stops delivery; the etcd watch is cancelled in the background. */
  cancel(): void {
    if (this.done) return;
    this.done = true;
    this.hooks.ended(this);
    const w = this.watcher;
    this.watcher = undefined;
    w?.removeAllListeners('data');
    // A watcher cancelled while etcd is unreachable settles once the stream is gone.
    w?.on('error', () => {});
    void w?.cancel().catch(() => {});
  }

  /** Ends the watch with err (once). */
  fail(err: StoreError): void {
    if (this.done) return;
    this.cancel();
    this.onError?.(err);
  }

  private receive(res: IWatchResponse): void {
    if (this.done) return;
    const headerRevision = fromEtcdRevision(res.header.revision);
    this.hooks.observe(headerRevision);
    if (res.compact_revision && res.compact_revision !== '0') this.hooks.compacted(fromEtcdRevision(res.compact_revision));
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
    } else if (res.events.length === 0 && !res.created && headerRevision > this.delivered) {
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
    this.resumeFromDelivered();
  }

  /** Points etcd3's automatic re-attach at the first revision not yet delivered. */
  private resumeFromDelivered(): void {
    if (this.watcher) this.watcher.request.start_revision = String(toEtcdRevision(this.delivered + 1));
  }

  private event(ev: IEvent): StoreEvent {
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

/**
 * etcd cancels a watch whose start revision was compacted with `compact_revision` set and no
 * reason, and etcd3 passes on only the reason ("Watcher canceled: "); every other cancel
 * (permissions, bad ranges) carries one.
 */
function isCompactedCancel(err: unknown): boolean {
  const msg = err instanceof Error ? err.message : String(err);
  return isCompactedError(err) || /Watcher canceled:\s*$/.test(msg);
}
