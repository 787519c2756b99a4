/**
 * client-go's events library (tools/events, events.k8s.io/v1 → events.<brand domain>/v1): one
 * recorder per component with reportingController and reportingInstance. An event identical in
 * action, reason, reportingController, regarding and related to one already sent becomes a
 * series: the first repeat PATCHes `series {count, lastObservedTime}` onto the stored Event,
 * later repeats only bump the cached count, which the 30-minute refresh writes; a series idle
 * for 6 minutes is written a last time and forgotten. Like the broadcaster's 1000-event queue,
 * what cannot be sent soon is dropped rather than queued without bound; writes go through the
 * client's rate limiter.
 */
import { type Clock, REAL_CLOCK } from './clock.js';
import { microTime } from './micro-time.js';
import type { RestClient } from './rest-client.js';

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
}

export interface EventsV1Event {
  apiVersion: string;
  kind: 'Event';
  metadata: { name: string; namespace: string; resourceVersion?: string };
  eventTime: string;
  series?: { count: number; lastObservedTime: string };
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  regarding: ObjectReference;
  related?: ObjectReference;
  note: string;
  type: string;
}

export interface EventRecorderOptions {
  client: RestClient;
  /** `events.orch.io` or `events.k8s.io`. */
  eventsGroup: string;
  reportingController: string;
  reportingInstance: string;
  clock?: Clock;
  /** Events waiting to be written beyond which new ones are dropped (the broadcaster's 1000). */
  maxQueued?: number;
  /** A write failed for good (logging). */
  onError?: (err: unknown) => void;
}

/** Upstream's 30-minute series refresh and 6-minute series end. */
const REFRESH_MS = 30 * 60 * 1000;
const FINISH_MS = 6 * 60 * 1000;
/** The note field's limit (events validation: 1 kB). */
const MAX_NOTE = 1024;

interface Cached {
  event: EventsV1Event;
  /** When the event (or its series) was last observed, for the 6-minute end. */
  lastObserved: number;
}

export class EventRecorder {
  private readonly cache = new Map<string, Cached>();
  private readonly clock: Clock;
  private queued = 0;
  private readonly pending = new Set<Promise<void>>();
  /** The last write queued per event key: writes of one event go in order, so a series PATCH follows its create. */
  private readonly tails = new Map<string, Promise<void>>();
  private readonly cancelTimers = new Map<string, () => void>();
  private stopped = false;
  /** Events dropped because the queue was full. */
  dropped = 0;

  constructor(private readonly o: EventRecorderOptions) {
    this.clock = o.clock ?? REAL_CLOCK;
    this.schedule(REFRESH_MS, () => this.refreshSeries());
    this.schedule(FINISH_MS, () => this.finishSeries());
  }

  /** Records an event about `regarding`; never throws, never waits. */
  eventf(regarding: ObjectReference, related: ObjectReference | undefined, type: string, reason: string, action: string, note: string): void {
    if (this.stopped) return;
    const now = this.clock.now();
    const key = JSON.stringify([action, reason, this.o.reportingController, refKey(regarding), related ? refKey(related) : null]);
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      hit.lastObserved = now;
      if (hit.event.series !== undefined) {
        // Later repeats only count; the periodic refresh writes the count.
        hit.event.series = { count: hit.event.series.count + 1, lastObservedTime: microTime(now) };
        return;
      }
      // The first repeat is the second occurrence (client-go once wrote 1 here, later fixed to 2).
      hit.event.series = { count: 2, lastObservedTime: microTime(now) };
      this.enqueue(key);
      return;
    }
    const namespace = regarding.namespace || 'default';
    const event: EventsV1Event = {
      apiVersion: `${this.o.eventsGroup}/v1`,
      kind: 'Event',
      // Upstream's name: the regarding object's name and the time in hex nanoseconds.
      metadata: { name: `${regarding.name ?? ''}.${(BigInt(now) * 1_000_000n).toString(16)}`, namespace },
      eventTime: microTime(now),
      reportingController: this.o.reportingController,
      reportingInstance: this.o.reportingInstance,
      action,
      reason,
      regarding,
      ...(related ? { related } : {}),
      note: note.length > MAX_NOTE ? note.slice(0, MAX_NOTE) : note,
      type,
    };
    this.cache.set(key, { event, lastObserved: now });
    this.enqueue(key);
  }

  /** Waits for the writes in flight (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Stops the periodic work; writes in flight finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const c of this.cancelTimers.values()) c();
    await this.flush();
  }

  /** Queues a write of the key's event as cached when the write starts (a later count is written, not a stale one). */
  private enqueue(key: string, final?: EventsV1Event): void {
    if (this.queued >= (this.o.maxQueued ?? 1000)) {
      this.dropped++;
      return;
    }
    this.queued++;
    const prev = this.tails.get(key) ?? Promise.resolve();
    const p: Promise<void> = prev
      .then(() => {
        const event = final ?? this.cache.get(key)?.event;
        return event === undefined ? undefined : this.write(key, event);
      })
      .catch((err) => this.o.onError?.(err))
      .finally(() => {
        this.queued--;
        this.pending.delete(p);
        if (this.tails.get(key) === p) this.tails.delete(key);
      });
    this.tails.set(key, p);
    this.pending.add(p);
  }

  private collectionPath(ns: string): string {
    return `/apis/${this.o.eventsGroup}/v1/namespaces/${encodeURIComponent(ns)}/events`;
  }

  /** Upstream's recordEvent: a series is PATCHed onto the stored event; a missing one is created again. */
  private async write(key: string, event: EventsV1Event): Promise<void> {
    const path = this.collectionPath(event.metadata.namespace);
    if (event.series !== undefined && event.metadata.resourceVersion !== undefined) {
      const res = await this.o.client.request<EventsV1Event>(
        'PATCH',
        `${path}/${encodeURIComponent(event.metadata.name)}`,
        { series: event.series },
        'application/strategic-merge-patch+json',
      );
      if (res.status === 200) return this.remember(key, res.body);
      if (res.status !== 404) throw new Error(`patch event ${event.metadata.name}: HTTP ${res.status}`);
    }
    const { resourceVersion: _, ...metadata } = event.metadata;
    const res = await this.o.client.request<EventsV1Event>('POST', path, { ...event, metadata });
    if (res.status !== 201 && res.status !== 200) throw new Error(`create event ${event.metadata.name}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    this.remember(key, res.body);
  }

  /**
   * Notes that the event is stored (its resourceVersion: a repeat then PATCHes its series). The
   * cache keeps the event as recorded, not the server's answer, as client-go's does ("server-side
   * mutations could mess with the aggregation"): holding every answer (managedFields and all)
   * for the cache's 6 minutes made each Event the scheduler wrote outlive the young generation.
   */
  private remember(key: string, stored: EventsV1Event): void {
    const hit = this.cache.get(key);
    if (hit === undefined) return;
    const resourceVersion = stored?.metadata?.resourceVersion;
    if (resourceVersion === undefined) delete hit.event.metadata.resourceVersion;
    else hit.event.metadata.resourceVersion = resourceVersion;
  }

  private refreshSeries(): void {
    for (const [key, c] of this.cache) if (c.event.series !== undefined) this.enqueue(key);
  }

  private finishSeries(): void {
    const now = this.clock.now();
    for (const [key, c] of this.cache) {
      if (now - c.lastObserved < FINISH_MS) continue;
      this.cache.delete(key);
      if (c.event.series !== undefined) this.enqueue(key, c.event);
    }
  }

  private schedule(ms: number, fn: () => void): void {
    const name = String(ms);
    const tick = () => {
      if (this.stopped) return;
      fn();
      this.cancelTimers.set(name, this.clock.setTimer(ms, tick));
    };
    this.cancelTimers.set(name, this.clock.setTimer(ms, tick));
  }
}

function refKey(r: ObjectReference): string {
  return `${r.apiVersion ?? ''}|${r.kind ?? ''}|${r.namespace ?? ''}|${r.name ?? ''}|${r.uid ?? ''}`;
}
