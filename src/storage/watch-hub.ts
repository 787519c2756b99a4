/**
 * Watch fan-out shared by the stores: replays history from a store's log, then switches each
 * watcher to live events, without gaps or duplicates and in revision order.
 *
 * A watcher remembers the last revision it has been brought up to (`lastRev`). While catching
 * up it reads pages of history (revisions > lastRev) and ignores live events, because anything
 * committed meanwhile is in the log and will be read by a later page. When a page comes back
 * short, history has been read up to the store's current revision at that same synchronous
 * moment, so the watcher goes live with lastRev = current and drops live events <= lastRev.
 *
 * Every sink call goes through one FIFO delivery queue, so a sink that writes to the store (and
 * so publishes) while handling a batch never receives the next batch re-entrantly.
 */

import { type StoreEvent, StoreError, type WatchErrorSink, type WatchSink } from './interface.js';

/** What a store exposes to the hub; every call is synchronous and sees committed state only. */
export interface HistorySource {
  /** Events whose key starts with prefix and after < revision <= upTo, in revision order, at most limit. */
  history(prefix: string, after: number, upTo: number, limit: number): StoreEvent[];
  currentRevision(): number;
  compactedRevision(): number;
}

export interface WatchHubOptions {
  /** Most history events read (and delivered as one batch) per step; default 1000. */
  pageSize?: number;
  /** Most revisions scanned per step, so a narrow prefix over long history never blocks for long; default 10 pages. */
  scanWindow?: number;
  /** Runs a catch-up step later; default setImmediate, so long replays never block writers. */
  schedule?: (fn: () => void) => void;
}

interface Watcher {
  prefix: string;
  lastRev: number;
  live: boolean;
  done: boolean;
  sink: WatchSink;
  onError?: WatchErrorSink;
}

interface Delivery {
  watcher: Watcher;
  events?: StoreEvent[];
  error?: StoreError;
}

export class WatchHub {
  private readonly watchers = new Set<Watcher>();
  private readonly queue: Delivery[] = [];
  private draining = false;
  private readonly pageSize: number;
  private readonly scanWindow: number;
  private readonly schedule: (fn: () => void) => void;

  constructor(
    private readonly source: HistorySource,
    opts: WatchHubOptions = {},
  ) {
    this.pageSize = Math.max(1, opts.pageSize ?? 1000);
    this.scanWindow = Math.max(1, opts.scanWindow ?? this.pageSize * 10);
    this.schedule = opts.schedule ?? ((fn) => setImmediate(fn));
  }

  /** Number of active watchers (for tests and metrics). */
  get size(): number {
    return this.watchers.size;
  }

  /** Registers a watcher; it receives every matching event with revision > fromRevision exactly once, in order. */
  watch(prefix: string, fromRevision: number, sink: WatchSink, onError?: WatchErrorSink): () => void {
    const w: Watcher = { prefix, lastRev: fromRevision, live: false, done: false, sink, onError };
    this.watchers.add(w);
    if (fromRevision >= this.source.currentRevision() && fromRevision >= this.source.compactedRevision()) {
      // Nothing to replay: go live now, so no event committed after this call can be missed.
      w.live = true;
    } else {
      // Replay later (never inside this call): the caller should hold the cancel function
      // before its sink or onError runs.
      this.schedule(() => this.catchUp(w));
    }
    return () => this.remove(w);
  }

  /** Delivers one commit's events (ascending revisions) to every live watcher whose prefix matches. */
  publish(events: StoreEvent[]): void {
    if (events.length === 0 || this.watchers.size === 0) return;
    const last = events[events.length - 1].revision;
    for (const w of this.watchers) {
      if (!w.live || last <= w.lastRev) continue;
      const matching = filterEvents(events, w.prefix, w.lastRev);
      w.lastRev = last;
      if (matching.length > 0) this.queue.push({ watcher: w, events: matching });
    }
    this.drain();
  }

  /** Ends every watch with err (e.g. Closed); their onError is called once each. */
  close(err: StoreError): void {
    for (const w of this.watchers) this.fail(w, err);
    this.drain();
  }

  private catchUp(w: Watcher): void {
    if (w.done) return;
    if (w.lastRev < this.source.compactedRevision()) {
      this.fail(w, new StoreError('Compacted', w.prefix, `watch from revision ${w.lastRev}: history before ${this.source.compactedRevision()} was compacted`));
      this.drain();
      return;
    }
    const current = this.source.currentRevision();
    const upTo = Math.min(current, w.lastRev + this.scanWindow);
    const page = this.source.history(w.prefix, w.lastRev, upTo, this.pageSize);
    if (page.length === this.pageSize) {
      w.lastRev = page[page.length - 1].revision;
    } else {
      w.lastRev = Math.max(w.lastRev, upTo);
      // Everything up to the current revision has been read in this same synchronous step.
      if (upTo >= current) w.live = true;
    }
    if (!w.live) this.schedule(() => this.catchUp(w));
    if (page.length > 0) this.queue.push({ watcher: w, events: page });
    this.drain();
  }

  private fail(w: Watcher, err: StoreError): void {
    if (w.done) return;
    this.remove(w);
    this.queue.push({ watcher: w, error: err });
  }

  private remove(w: Watcher): void {
    w.done = true;
    this.watchers.delete(w);
  }

  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let i = 0; i < this.queue.length; i++) {
        const d = this.queue[i];
        if (d.error) {
          try {
            d.watcher.onError?.(d.error);
          } catch {
            // The watch is over either way; a throwing error handler must not starve the others.
          }
          continue;
        }
        if (d.watcher.done || !d.events) continue;
        try {
          d.watcher.sink(d.events);
        } catch (err) {
          // A throwing sink is a bug in that consumer; end only its watch, never the others'.
          this.fail(d.watcher, new StoreError('Closed', d.watcher.prefix, `watch sink threw: ${String(err)}`));
        }
      }
    } finally {
      this.queue.length = 0;
      this.draining = false;
    }
  }
}

const NO_EVENTS: StoreEvent[] = [];

function filterEvents(events: StoreEvent[], prefix: string, after: number): StoreEvent[] {
  // One counting pass: most watchers (one per resource) match none of a commit's events, and
  // then nothing is allocated; a watcher that matches them all shares the commit's array.
  let matching = 0;
  for (const e of events) if (e.revision > after && e.kv.key.startsWith(prefix)) matching++;
  if (matching === events.length) return events;
  if (matching === 0) return NO_EVENTS;
  return events.filter((e) => e.revision > after && e.kv.key.startsWith(prefix));
}
