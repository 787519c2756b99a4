import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Clock } from './clock.js';
import { TokenBucket, rateLimiterFor, UNLIMITED } from './rate-limiter.js';

/** A clock that moves only when told; due timers fire as it moves. */
class ManualClock implements Clock {
  t = 0;
  private timers: { at: number; fn: () => void }[] = [];
  now(): number {
    return this.t;
  }
  setTimer(ms: number, fn: () => void): () => void {
    const timer = { at: this.t + ms, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((x) => x !== timer);
    };
  }
  advance(ms: number): void {
    this.t += ms;
    const due = this.timers.filter((x) => x.at <= this.t).sort((a, b) => a.at - b.at);
    this.timers = this.timers.filter((x) => x.at > this.t);
    for (const d of due) d.fn();
  }
}

const settled = () => new Promise((r) => setImmediate(r));

describe('token bucket', () => {
  it('lets a burst through at once, then one request per 1/qps seconds in arrival order', async () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(10, 2, clock);
    const done: number[] = [];
    for (let i = 0; i < 5; i++) void bucket.wait().then(() => done.push(i));
    await settled();
    assert.deepEqual(done, [0, 1]);
    clock.advance(99);
    await settled();
    assert.deepEqual(done, [0, 1]);
    clock.advance(1);
    await settled();
    assert.deepEqual(done, [0, 1, 2]);
    clock.advance(200);
    await settled();
    assert.deepEqual(done, [0, 1, 2, 3, 4]);
  });

  it('saves up at most burst tokens while idle', () => {
    const clock = new ManualClock();
    const bucket = new TokenBucket(100, 3, clock);
    clock.advance(60_000);
    assert.equal([1, 2, 3, 4].filter(() => bucket.tryAccept()).length, 3);
  });

  it('is no limit at all when qps is not positive, as client-go with QPS < 0', () => {
    assert.equal(rateLimiterFor(0, 10), UNLIMITED);
    assert.equal(rateLimiterFor(-1, 10), UNLIMITED);
    assert.ok(rateLimiterFor(5, 10) instanceof TokenBucket);
  });
});
