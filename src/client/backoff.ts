/**
 * Exponential backoff with jitter, as client-go's reflector uses (wait.NewExponentialBackoffManager:
 * 800 ms doubling to 30 s, jitter 1.0, reset after 2 minutes without failure).
 */
import type { Clock } from './clock.js';

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  factor?: number;
  /** Each delay is stretched by up to this fraction at random. */
  jitter?: number;
  /** A failure this long after the previous one starts again from initialMs. */
  resetAfterMs?: number;
  random?: () => number;
}

export class Backoff {
  private current: number;
  private lastFailure = Number.NEGATIVE_INFINITY;
  private readonly o: Required<BackoffOptions>;

  constructor(
    private readonly clock: Clock,
    opts: BackoffOptions = {},
  ) {
    this.o = {
      initialMs: opts.initialMs ?? 800,
      maxMs: opts.maxMs ?? 30_000,
      factor: opts.factor ?? 2,
      jitter: opts.jitter ?? 1,
      resetAfterMs: opts.resetAfterMs ?? 120_000,
      random: opts.random ?? Math.random,
    };
    this.current = this.o.initialMs;
  }

  /** The delay before the next attempt after a failure now; grows until maxMs. */
  next(): number {
    const now = this.clock.now();
    if (now - this.lastFailure > this.o.resetAfterMs) this.current = this.o.initialMs;
    this.lastFailure = now;
    const base = this.current;
    this.current = Math.min(this.o.maxMs, this.current * this.o.factor);
    return base + base * this.o.jitter * this.o.random();
  }

  /** Forgets failures (after a success). */
  reset(): void {
    this.current = this.o.initialMs;
    this.lastFailure = Number.NEGATIVE_INFINITY;
  }
}
