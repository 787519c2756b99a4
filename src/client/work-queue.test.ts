import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RateLimitedQueue } from './work-queue.js';

test('a key is never synced twice at once; one added while syncing is synced again after; a failure is retried with backoff', async () => {
  const log: string[] = [];
  let failOnce = true;
  let release: () => void = () => {};
  const q = new RateLimitedQueue(
    async (key) => {
      log.push(`start ${key}`);
      if (key === 'slow') await new Promise<void>((r) => (release = r));
      if (key === 'flaky' && failOnce) {
        failOnce = false;
        throw new Error('denied');
      }
      log.push(`end ${key}`);
    },
    { workers: 2, baseDelayMs: 5 },
  );
  q.add('slow');
  q.add('slow');
  await new Promise((r) => setTimeout(r, 5));
  q.add('slow');
  q.add('flaky');
  await new Promise((r) => setTimeout(r, 50));
  release();
  await new Promise((r) => setTimeout(r, 20));
  release();
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(
    log.filter((l) => l.endsWith('slow')),
    ['start slow', 'end slow', 'start slow', 'end slow'],
  );
  assert.deepEqual(
    log.filter((l) => l.endsWith('flaky')),
    ['start flaky', 'start flaky', 'end flaky'],
  );
  q.stop();
});
