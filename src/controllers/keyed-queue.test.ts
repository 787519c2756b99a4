import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedQueue } from './keyed-queue.js';

/** The queue's timers do not hold the process open (a controller must not); the test does while it waits. */
async function holdingTheLoop<T>(wait: Promise<T>): Promise<T> {
  const hold = setInterval(() => {}, 1000);
  try {
    return await wait;
  } finally {
    clearInterval(hold);
  }
}

test('a key queued twice before its turn is handled once; a failure is retried', async () => {
  const seen: string[] = [];
  let failOnce = true;
  const done = new Promise<void>((resolve) => {
    const q = new KeyedQueue(async (key) => {
      seen.push(key);
      if (key === 'b' && failOnce) {
        failOnce = false;
        throw new Error('transient');
      }
      if (seen.filter((k) => k === 'b').length === 2) {
        q.stop();
        resolve();
      }
    });
    q.add('a');
    q.add('b');
    q.add('b');
  });
  await holdingTheLoop(done);
  assert.deepEqual(seen, ['a', 'b', 'b']);
});

test('addAfter runs the key later, and add supersedes the wait', async () => {
  const seen: number[] = [];
  const start = Date.now();
  await holdingTheLoop(
    new Promise<void>((resolve) => {
      const q = new KeyedQueue(async () => {
        seen.push(Date.now() - start);
        q.stop();
        resolve();
      });
      q.addAfter('k', 60_000);
      q.add('k');
    }),
  );
  assert.equal(seen.length, 1);
  assert.ok(seen[0] < 1000);
});
