import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Due, Pace, runAtOnce, runPaced, SLICE_MS } from './pace.js';

/** Busy-waits (what a heavy step does to the thread). */
function holdThread(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** Stepped work of three steps, each holding the thread busyMs and logging its name. */
function threeSteps(log: string[], busyMs = 0) {
  return function* (due: Due): Generator<void, string, void> {
    for (const name of ['a', 'b', 'c']) {
      holdThread(busyMs);
      log.push(name);
      if (due()) yield;
    }
    return 'done';
  };
}

test('light stepped work finishes at once: a value, never a promise', () => {
  const log: string[] = [];
  assert.equal(runPaced(threeSteps(log), new Pace()), 'done');
  assert.deepEqual(log, ['a', 'b', 'c']);
  assert.equal(runAtOnce(threeSteps([], 1)), 'done');
  assert.equal(runPaced(threeSteps([]), undefined), 'done');
});

test('heavy stepped work lets other work run between its steps once its slice is used', async () => {
  const log: string[] = [];
  setImmediate(() => log.push('other work'));
  const out = runPaced(threeSteps(log, SLICE_MS + 5), new Pace());
  assert.ok(out instanceof Promise, 'a due pace makes the rest asynchronous');
  assert.deepEqual(log, ['a'], 'the first step ran before pausing');
  assert.equal(await out, 'done');
  assert.deepEqual(log.slice(0, 2), ['a', 'other work'], `other work ran between steps: ${log.join(',')}`);
  assert.deepEqual(log.slice(2), ['b', 'c']);
});

test('a pace is due after a slice of work and not right after it yields', async () => {
  const pace = new Pace();
  assert.equal(pace.due(), false);
  holdThread(SLICE_MS + 1);
  assert.equal(pace.due(), true);
  await pace.yield();
  assert.equal(pace.due(), false);
});

test('a step that throws throws (run at once) or rejects (paced) as the work would', async () => {
  function* failing(due: Due): Generator<void, string, void> {
    holdThread(SLICE_MS + 1);
    if (due()) yield;
    throw new Error('boom');
  }
  assert.throws(() => runAtOnce(failing), /boom/);
  const out = runPaced(failing, new Pace());
  assert.ok(out instanceof Promise);
  await assert.rejects(out, /boom/);
});

test('paused requests resume one per loop iteration, in the order they paused, with other work between', async () => {
  const log: string[] = [];
  let ticks = 0;
  const tick = () => {
    log.push('tick');
    if (++ticks < 10) setImmediate(tick);
  };
  setImmediate(tick);
  const paused = ['a', 'b', 'c'].map((name) => new Pace().yield().then(() => log.push(name)));
  await Promise.all(paused);
  const at = (name: string) => log.indexOf(name);
  assert.ok(at('a') < at('b') && at('b') < at('c'), log.join(','));
  assert.ok(log.slice(at('a'), at('b')).includes('tick'), `other work between two turns: ${log.join(',')}`);
  assert.ok(log.slice(at('b'), at('c')).includes('tick'), `other work between two turns: ${log.join(',')}`);
});
