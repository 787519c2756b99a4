/**
 * client-go's rate-limited work queue, reduced to what controllers need: a key is queued at
 * most once (a key added while it is being processed is processed again afterwards, never by
 * two workers at once), `workers` keys are processed concurrently, and a failed key comes back
 * after a per-key exponential delay (client-go's ItemExponentialFailureRateLimiter: 5 ms
 * doubling to 1000 s), forgotten on success.
 */
export interface WorkQueueOptions {
  /** Keys processed at once (upstream's --concurrent-*-syncs). */
  workers?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A key's sync failed; it will be retried (logging). */
  onError?: (key: string, err: unknown) => void;
}

export class RateLimitedQueue {
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  /** Keys added again while processing: re-queued when their current sync ends. */
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private active = 0;
  private stopped = false;
  private readonly workers: number;

  constructor(
    private readonly sync: (key: string) => Promise<void>,
    private readonly o: WorkQueueOptions = {},
  ) {
    this.workers = Math.max(1, o.workers ?? 1);
  }

  add(key: string): void {
    if (this.stopped) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.queued.add(key);
    this.pump();
  }

  /** Re-adds a key after its backoff (client-go's AddRateLimited). */
  addRateLimited(key: string): void {
    if (this.stopped || this.timers.has(key)) return;
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const delay = Math.min(this.o.maxDelayMs ?? 1_000_000, (this.o.baseDelayMs ?? 5) * 2 ** n);
    const t = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, delay);
    this.timers.set(key, t);
  }

  /** Keys waiting or being processed (tests and metrics). */
  get length(): number {
    return this.queued.size + this.processing.size;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.queued.clear();
  }

  private pump(): void {
    while (!this.stopped && this.active < this.workers && this.queued.size > 0) {
      const key = this.queued.values().next().value as string;
      this.queued.delete(key);
      this.processing.add(key);
      this.active++;
      void this.process(key);
    }
  }

  private async process(key: string): Promise<void> {
    try {
      await this.sync(key);
      this.failures.delete(key);
    } catch (err) {
      if (!this.stopped) {
        this.o.onError?.(key, err);
        this.addRateLimited(key);
      }
    } finally {
      this.processing.delete(key);
      this.active--;
      if (this.dirty.delete(key)) this.add(key);
      this.pump();
    }
  }
}
