/**
 * client-go's rate-limited work queue, reduced to what the collector needs: a key queued twice
 * is processed once; a key added while a worker holds it is processed again after that worker
 * is done (never by two workers at once); failures come back after a per-key exponential delay
 * (5 ms doubling to 1000 s, client-go's default controller rate limiter) until forgotten.
 */
export class WorkQueue<K> {
  private readonly queue: K[] = [];
  private head = 0;
  private readonly dirty = new Set<K>();
  private readonly processing = new Set<K>();
  private readonly failures = new Map<K, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private waiters: (() => void)[] = [];
  private shutDown = false;

  constructor(
    private readonly baseDelayMs = 5,
    private readonly maxDelayMs = 1_000_000,
  ) {}

  add(key: K): void {
    if (this.shutDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.waiters.shift()?.();
  }

  /** Adds the key again after its backoff delay. */
  addRateLimited(key: K): void {
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const delay = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** n);
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.add(key);
    }, delay);
    this.timers.add(t);
  }

  forget(key: K): void {
    this.failures.delete(key);
  }

  /** The next key, or undefined once the queue is shut down. */
  async get(): Promise<K | undefined> {
    while (this.head >= this.queue.length) {
      if (this.shutDown) return undefined;
      await new Promise<void>((r) => this.waiters.push(r));
    }
    const key = this.queue[this.head++] as K;
    // Compact now and then, so a long-running queue does not keep every key it ever held.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.processing.add(key);
    this.dirty.delete(key);
    return key;
  }

  done(key: K): void {
    this.processing.delete(key);
    if (this.dirty.has(key)) {
      this.queue.push(key);
      this.waiters.shift()?.();
    }
  }

  get length(): number {
    return this.queue.length - this.head;
  }

  shutdown(): void {
    this.shutDown = true;
    for (const t of this.timers) clearTimeout(t);
    for (const w of this.waiters.splice(0)) w();
  }
}
