import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedQueue } from './keyed-queue.js';

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
  await done;
  assert.deepEqual(seen, ['a', 'b', 'b']);
});

test('addAfter runs the key later, and add supersedes the wait', async () => {
  const seen: number[] = [];
  const start = Date.now();
  await new Promise<void>((resolve) => {
    const q = new KeyedQueue(async () => {
      seen.push(Date.now() - start);
      q.stop();
      resolve();
    });
    q.addAfter('k', 60_000);
    q.add('k');
  });
  assert.equal(seen.length, 1);
  assert.ok(seen[0] < 1000);
});
