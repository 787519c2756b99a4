import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startCompactor } from './compactor.js';
import { MemoryStore } from './memory/memory-store.js';

/** A manual clock and timer queue: time moves only when the test says so. */
function fakeTime() {
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => now,
    setTimer: (fn: () => void, ms: number) => {
      const t = { at: now + ms, fn };
      timers.push(t);
      return () => {
        timers = timers.filter((x) => x !== t);
      };
    },
    /** Advances the clock by ms, firing due timers in order. */
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.fn();
        await new Promise((r) => setImmediate(r));
      }
      now = end;
    },
    pending: () => timers.length,
  };
}

async function write(store: MemoryStore, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await store.create(`/k/${store.currentRevision() + 1}`, new Uint8Array([i]));
}

describe('startCompactor', () => {
  it('compacts each interval to the revision observed one interval earlier', async () => {
    const store = new MemoryStore();
    const time = fakeTime();
    await write(store, 5); // revision 5 observed at start
    const stop = startCompactor(store, { intervalMs: 1000, now: time.now, setTimer: time.setTimer });
    await write(store, 5); // 10
    await time.advance(999);
    assert.equal(store.compactedRevision(), 0, 'nothing before a full interval');
    await time.advance(1);
    assert.equal(store.compactedRevision(), 5, 'the start observation');
    await write(store, 5); // 15, observed 10 at t=1000
    await time.advance(1000);
    assert.equal(store.compactedRevision(), 10);
    await time.advance(1000);
    assert.equal(store.compactedRevision(), 15);
    await stop();
    assert.equal(time.pending(), 0, 'stop cancels the timer');
    await write(store, 5);
    await time.advance(5000);
    assert.equal(store.compactedRevision(), 15);
  });

  it('never compacts history younger than the interval, even when timers fire early', async () => {
    const store = new MemoryStore();
    let now = 0;
    const fired: (() => void)[] = [];
    const stop = startCompactor(store, {
      intervalMs: 1000,
      now: () => now,
      setTimer: (fn) => {
        fired.push(fn);
        return () => {};
      },
    });
    for (let t = 100; t <= 900; t += 100) {
      await write(store, 1);
      now = t;
      fired.shift()?.();
    }
    assert.equal(store.compactedRevision(), 0);
    now = 1000;
    fired.shift()?.();
    await new Promise((r) => setImmediate(r));
    assert.equal(store.compactedRevision(), 0, 'revision at t=0 was 0: nothing to compact');
    await write(store, 1);
    now = 1150;
    fired.shift()?.();
    await new Promise((r) => setImmediate(r));
    assert.equal(store.compactedRevision(), 1, 'observed at t=100, the newest at least 1000 ms old');
    await stop();
  });

  it('keeps going after a failed compaction and reports it', async () => {
    const store = new MemoryStore();
    const time = fakeTime();
    const errors: unknown[] = [];
    let fail = true;
    const real = store.compact.bind(store);
    store.compact = (rev: number) => (fail ? Promise.reject(new Error('disk')) : real(rev));
    await write(store, 3);
    const stop = startCompactor(store, { intervalMs: 10, now: time.now, setTimer: time.setTimer, onError: (e) => errors.push(e) });
    await time.advance(10);
    assert.equal(errors.length, 1);
    fail = false;
    await time.advance(10);
    assert.equal(store.compactedRevision(), 3);
    await stop();
  });
});
