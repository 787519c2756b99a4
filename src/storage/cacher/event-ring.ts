/**
 * The cache's recent events, oldest first, trimmed by age and count. It knows the revision
 * from which it holds every event, so a watch resuming from an older one gets 410 Gone.
 */
import type { CacheEvent } from './types.js';

export class EventRing {
  private events: CacheEvent[] = [];
  private times: number[] = [];
  private head = 0;
  /** Every event with revision > start is kept. */
  private start = 0;

  constructor(
    private readonly maxAgeMs: number,
    private readonly maxEvents: number,
    private readonly now: () => number,
  ) {}

  /** Forgets everything; events after `revision` will be kept from now on. */
  reset(revision: number): void {
    this.events = [];
    this.times = [];
    this.head = 0;
    this.start = revision;
  }

  /** The revision after which every event is kept. */
  startRevision(): number {
    return this.start;
  }

  /** Appends an event (revisions ascending) and drops what is too old or too many. */
  push(event: CacheEvent): void {
    const t = this.now();
    this.events.push(event);
    this.times.push(t);
    const cutoff = t - this.maxAgeMs;
    while (this.head < this.events.length && (this.events.length - this.head > this.maxEvents || this.times[this.head] < cutoff)) {
      this.start = this.events[this.head].revision;
      this.head++;
    }
    // Compact the arrays once the dropped prefix dominates, so memory stays bounded.
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.times = this.times.slice(this.head);
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
      if (this.events[mid].revision <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo);
  }
}
