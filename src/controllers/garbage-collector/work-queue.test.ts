import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkQueue } from './work-queue.js';

describe('WorkQueue', () => {
  it('hands out a key queued twice once', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    q.add('a');
    q.add('b');
    assert.equal(q.length, 2);
    assert.equal(await q.get(), 'a');
    assert.equal(await q.get(), 'b');
  });

  it('a key added while held comes back only after done', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    const key = await q.get();
    q.add('a');
    assert.equal(q.length, 0, 'not handed to a second worker');
    q.done(key as string);
    assert.equal(q.length, 1);
    assert.equal(await q.get(), 'a');
  });

  it('requeues after a growing delay and wakes waiting workers; shutdown ends them', async () => {
    const q = new WorkQueue<string>(5);
    const waiting = q.get();
    const t = Date.now();
    q.addRateLimited('a');
    assert.equal(await waiting, 'a');
    q.done('a');
    q.addRateLimited('a');
    assert.equal(await q.get(), 'a');
    assert.ok(Date.now() - t >= 10, 'second delay doubled');
    const pending = q.get();
    q.shutdown();
    assert.equal(await pending, undefined);
  });
});
