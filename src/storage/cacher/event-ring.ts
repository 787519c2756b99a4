/**
 * The cache's recent events, oldest first, trimmed by age, by count and by bytes. It knows the
 * revision from which it holds every event, so a watch resuming from an older one gets 410 Gone.
 */
import type { CacheEvent } from './types.js';

/** Bytes an event is charged beyond its object's JSON: the event and entry objects and their slots. */
const EVENT_OVERHEAD_BYTES = 512;

/**
 * What an event holds alive, as measured (bench/history-memory.ts: about 4.4 KB of RSS per
 * event of a 1.2 KB ConfigMap, before any watcher read it): its object's JSON and the buffer
 * space around it, and the watch line encoded from it once a watcher reads it (`watchLine`).
 * The previous object (`prev`) is not counted: it is the entry of the event before, or of the
 * cache's current state.
 */
export function eventBytes(event: CacheEvent): number {
  return 3 * (event.entry.jsonBytes ?? event.entry.json.length) + EVENT_OVERHEAD_BYTES;
}

export class EventRing {
  private events: Array<CacheEvent | undefined> = [];
  private times: number[] = [];
  private sizes: number[] = [];
  private head = 0;
  private bytes = 0;
  /** Every event with revision > start is kept. */
  private start = 0;

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEvents: number,
    private readonly now: () => number,
    private readonly maxBytes: number = Number.POSITIVE_INFINITY,
  ) {}

  /** Forgets everything; events after `revision` will be kept from now on. */
  reset(revision: number): void {
    this.events = [];
    this.times = [];
    this.sizes = [];
    this.head = 0;
    this.bytes = 0;
    this.start = revision;
  }

  /** The revision after which every event is kept. */
  startRevision(): number {
    return this.start;
  }

  /** Events kept now. */
  length(): number {
    return this.events.length - this.head;
  }

  /** Bytes the kept events are charged (see eventBytes). */
  size(): number {
    return this.bytes;
  }

  /**
   * Appends an event (revisions ascending) and drops what is too old, too many or too large.
   * The newest event is always kept, whatever its size, so a watcher that is current loses nothing.
   */
  push(event: CacheEvent): void {
    const t = this.now();
    const size = eventBytes(event);
    this.events.push(event);
    this.times.push(t);
    this.sizes.push(size);
    this.bytes += size;
    const cutoff = t - this.maxAgeMs;
    while (
      this.events.length - this.head > 1 &&
      (this.events.length - this.head > this.maxEvents || this.times[this.head] < cutoff || this.bytes > this.maxBytes)
    ) {
      this.start = (this.events[this.head] as CacheEvent).revision;
      this.bytes -= this.sizes[this.head];
      // Dropped at once, not at the next compaction: a dropped event may hold megabytes.
      this.events[this.head] = undefined;
      this.head++;
    }
    // Compact the arrays once the dropped prefix dominates, so memory stays bounded.
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.times = this.times.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }

  /** Events with revision > after in order, or undefined when some of them were dropped. */
  since(after: number): CacheEvent[] | undefined {
    if (after < this.start) return undefined;
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.events[mid] as CacheEvent).revision <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo) as CacheEvent[];
  }
}
