// The watch cache's ring of recent events: what a resuming watch can be served from, and when
// it must get 410 instead (events trimmed by age on an injected clock, or by count).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventRing, eventBytes } from './event-ring.js';
import type { CacheEvent } from './types.js';

function ev(revision: number, size = 0): CacheEvent {
  const json = Buffer.from(`{"rv":${revision}${size > 0 ? `,"x":"${'x'.repeat(size)}"` : ''}}`);
  const entry = { key: `/r/k${revision}`, modRevision: revision, json, labels: undefined, fields: {} };
  return { type: 'ADDED', revision, entry };
}

function clock(start = 0) {
  let t = start;
  return {
    now: () => t,
    set(ms: number) {
      t = ms;
    },
  };
}

const revs = (events: CacheEvent[] | undefined): number[] | undefined => events?.map((e) => e.revision);

describe('EventRing', () => {
  it('returns the events after a revision, in order', () => {
    const c = clock();
    const ring = new EventRing(60_000, 1000, c.now);
    ring.reset(10);
    for (const r of [11, 12, 15, 20]) ring.push(ev(r));
    assert.deepEqual(revs(ring.since(10)), [11, 12, 15, 20]);
    assert.deepEqual(revs(ring.since(12)), [15, 20]);
    // Revisions of other resources fall between ours: a resume from one of them is fine.
    assert.deepEqual(revs(ring.since(13)), [15, 20]);
    assert.deepEqual(revs(ring.since(20)), []);
    assert.deepEqual(revs(ring.since(99)), []);
  });

  it('answers undefined (410) for a revision before the one it started at', () => {
    const ring = new EventRing(60_000, 1000, clock().now);
    ring.reset(10);
    assert.equal(ring.startRevision(), 10);
    assert.equal(ring.since(9), undefined);
    assert.deepEqual(ring.since(10), []);
    ring.push(ev(11));
    assert.equal(ring.since(9), undefined);
    assert.deepEqual(revs(ring.since(10)), [11]);
  });

  it('drops events older than its history once a newer one arrives, and then refuses resumes before them', () => {
    const c = clock(1_000);
    const ring = new EventRing(500, 1000, c.now);
    ring.reset(0);
    ring.push(ev(1));
    c.set(1_200);
    ring.push(ev(2));
    c.set(1_400);
    ring.push(ev(3));
    assert.deepEqual(revs(ring.since(0)), [1, 2, 3]);
    // At 1,650 the event of 1,000 is older than 500 ms: dropped when the next event arrives.
    c.set(1_650);
    ring.push(ev(4));
    assert.equal(ring.startRevision(), 1);
    assert.equal(ring.since(0), undefined);
    assert.deepEqual(revs(ring.since(1)), [2, 3, 4]);
    // At 2,000 the events of 1,200 and 1,400 are too old as well.
    c.set(2_000);
    ring.push(ev(5));
    assert.equal(ring.startRevision(), 3);
    assert.equal(ring.since(2), undefined);
    assert.deepEqual(revs(ring.since(3)), [4, 5]);
  });

  it('keeps an event for at least its full history', () => {
    const c = clock(0);
    const ring = new EventRing(500, 1000, c.now);
    ring.reset(0);
    ring.push(ev(1));
    c.set(500);
    ring.push(ev(2));
    assert.deepEqual(revs(ring.since(0)), [1, 2]);
    c.set(501);
    ring.push(ev(3));
    assert.deepEqual(revs(ring.since(1)), [2, 3]);
    assert.equal(ring.since(0), undefined);
  });

  it('keeps at most maxEvents whatever their age', () => {
    const ring = new EventRing(60_000, 3, clock().now);
    ring.reset(0);
    for (let r = 1; r <= 5; r++) ring.push(ev(r));
    assert.equal(ring.startRevision(), 2);
    assert.equal(ring.since(1), undefined);
    assert.deepEqual(revs(ring.since(2)), [3, 4, 5]);
  });

  it('keeps at most maxBytes of events, charged by their JSON size', () => {
    const big = eventBytes(ev(1, 100_000));
    const ring = new EventRing(60_000, 1000, clock().now, 3 * big + 100);
    ring.reset(0);
    for (let r = 1; r <= 3; r++) ring.push(ev(r, 100_000));
    assert.deepEqual(revs(ring.since(0)), [1, 2, 3]);
    ring.push(ev(4, 100_000));
    assert.equal(ring.startRevision(), 1);
    assert.equal(ring.since(0), undefined);
    assert.deepEqual(revs(ring.since(1)), [2, 3, 4]);
    assert.ok(ring.size() <= 3 * big + 100);
    // Small events fill the room one large one leaves.
    const smallBytes = eventBytes(ev(5));
    ring.push(ev(5));
    assert.equal(ring.startRevision(), 2);
    assert.equal(ring.length(), 3);
    assert.equal(ring.size(), 2 * big + smallBytes);
  });

  it('keeps the newest event even when it alone is larger than maxBytes', () => {
    const ring = new EventRing(60_000, 1000, clock().now, 1000);
    ring.reset(0);
    ring.push(ev(1, 10));
    ring.push(ev(2, 5000));
    assert.equal(ring.startRevision(), 1);
    assert.deepEqual(revs(ring.since(1)), [2]);
    ring.push(ev(3, 10));
    assert.deepEqual(revs(ring.since(2)), [3]);
  });

  it('stays correct over many events (its arrays are compacted as it goes)', () => {
    const c = clock();
    const ring = new EventRing(60_000, 100, c.now);
    ring.reset(1000);
    for (let r = 1001; r <= 6000; r++) {
      c.set(r);
      ring.push(ev(r));
    }
    assert.equal(ring.startRevision(), 5900);
    assert.equal(ring.since(5899), undefined);
    const kept = revs(ring.since(5900)) ?? [];
    assert.equal(kept.length, 100);
    assert.deepEqual(
      kept,
      Array.from({ length: 100 }, (_, i) => 5901 + i),
    );
    assert.deepEqual(
      revs(ring.since(5990)),
      Array.from({ length: 10 }, (_, i) => 5991 + i),
    );
  });

  it('forgets everything on reset', () => {
    const ring = new EventRing(60_000, 1000, clock().now);
    ring.reset(0);
    for (let r = 1; r <= 3; r++) ring.push(ev(r));
    ring.reset(50);
    assert.equal(ring.since(3), undefined);
    assert.deepEqual(ring.since(50), []);
    ring.push(ev(51));
    assert.deepEqual(revs(ring.since(50)), [51]);
  });
});
