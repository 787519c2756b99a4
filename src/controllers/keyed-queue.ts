/**
 * A controller's work queue (client-go's rate-limited delaying queue, reduced): keys are
 * handled one at a time, a key queued twice before its turn is handled once, a failed key is
 * retried after a per-key backoff (5 ms doubling, at most 1000 s, as client-go's default), and
 * a key can be queued for later (`addAfter`, e.g. when a token expires).
 */
export type KeyHandler = (key: string) => Promise<void>;

const BASE_DELAY_MS = 5;
const MAX_DELAY_MS = 1000 * 1000;

export class KeyedQueue {
  private readonly pending = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private working = false;
  private stopped = false;

  constructor(
    private readonly handle: KeyHandler,
    private readonly onError: (key: string, err: unknown) => void = () => {},
  ) {}

  /** Queues key now; a later timer for it is superseded. */
  add(key: string): void {
    if (this.stopped) return;
    this.clearTimer(key);
    this.pending.add(key);
    void this.drain();
  }

  /** Queues key after delayMs; an earlier timer for the same key wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    if (this.timers.has(key)) return;
    // setTimeout's limit is 2^31-1 ms (~24 days): longer waits re-arm on the way.
    const t = setTimeout(
      () => {
        this.timers.delete(key);
        if (delayMs > MAX_TIMER_MS) this.addAfter(key, delayMs - MAX_TIMER_MS);
        else this.add(key);
      },
      Math.min(delayMs, MAX_TIMER_MS),
    );
    t.unref?.();
    this.timers.set(key, t);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.pending.clear();
  }

  private clearTimer(key: string): void {
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.delete(key);
  }

  private async drain(): Promise<void> {
    if (this.working) return;
    this.working = true;
    try {
      while (this.pending.size > 0 && !this.stopped) {
        const key = this.pending.values().next().value as string;
        this.pending.delete(key);
        try {
          await this.handle(key);
          this.failures.delete(key);
        } catch (err) {
          if (this.stopped) return;
          this.onError(key, err);
          const n = this.failures.get(key) ?? 0;
          this.failures.set(key, n + 1);
          this.addAfter(key, Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** n));
        }
      }
    } finally {
      this.working = false;
    }
  }
}

const MAX_TIMER_MS = 2 ** 31 - 1;
