/**
 * client-go's token-bucket rate limiter (flowcontrol.NewTokenBucketRateLimiter): `qps` tokens
 * a second, at most `burst` saved up; each request takes one token, waiting for it when the
 * bucket is empty. Waiters are served in arrival order because each reserves its slot.
 */
import { type Clock, REAL_CLOCK, sleep } from './clock.js';

export interface RateLimiter {
  /** Resolves when the caller may send one request. */
  wait(): Promise<void>;
}

/** A limiter that never waits (qps <= 0, as client-go's "no limit" configuration). */
export const UNLIMITED: RateLimiter = { wait: () => Promise.resolve() };

export class TokenBucket implements RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly clock: Clock = REAL_CLOCK,
  ) {
    if (!(qps > 0)) throw new Error(`token bucket needs qps > 0, got ${qps}`);
    this.burst = Math.max(1, Math.floor(burst));
    this.tokens = this.burst;
    this.last = clock.now();
  }

  /** Takes a token if one is available now; false otherwise (nothing reserved). */
  tryAccept(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  wait(): Promise<void> {
    this.refill();
    // Reserve now: the balance may go negative, and the debt is what later callers wait out.
    this.tokens -= 1;
    if (this.tokens >= 0) return Promise.resolve();
    return sleep(this.clock, (-this.tokens * 1000) / this.qps);
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    this.last = now;
  }
}

/** The limiter for a client configuration: a token bucket, or none when qps <= 0. */
export function rateLimiterFor(qps: number | undefined, burst: number | undefined, clock?: Clock): RateLimiter {
  if (qps === undefined || qps <= 0) return UNLIMITED;
  return new TokenBucket(qps, burst ?? Math.max(1, Math.ceil(qps)), clock);
}
