import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Pace, runAtOnce, runPaced, SLICE_MS } from './pace.js';

function* steps(log: string[], busyMs = 0): Generator<void, string, void> {
  for (const name of ['a', 'b', 'c']) {
    const end = performance.now() + busyMs;
    while (performance.now() < end);
    log.push(name);
    yield;
  }
  return 'done';
}

/** Busy-waits so a pace started now is due. */
function holdThread(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

test('light stepped work finishes at once: a value, never a promise', () => {
  const log: string[] = [];
  const out = runPaced(steps(log), new Pace());
  assert.equal(out, 'done');
  assert.deepEqual(log, ['a', 'b', 'c']);
  assert.equal(runAtOnce(steps([])), 'done');
  assert.equal(runPaced(steps([]), undefined), 'done');
});

test('heavy stepped work lets timers run between its steps once its slice is used', async () => {
  const log: string[] = [];
  let timerRan = false;
  setImmediate(() => {
    timerRan = true;
    log.push('other work');
  });
  const out = runPaced(steps(log, SLICE_MS + 5), new Pace());
  assert.ok(out instanceof Promise, 'a due pace makes the rest asynchronous');
  assert.deepEqual(log, ['a'], 'the first step ran before yielding');
  assert.equal(await out, 'done');
  assert.ok(timerRan);
  assert.ok(log.indexOf('other work') > 0 && log.indexOf('other work') < log.length - 1, `other work ran between steps: ${log.join(',')}`);
});

test('a pace is due after a slice of work and not after it yields', async () => {
  const pace = new Pace();
  assert.equal(pace.due(), false);
  holdThread(SLICE_MS + 1);
  assert.equal(pace.due(), true);
  await pace.yield();
  assert.equal(pace.due(), false);
});

test('a step that throws rejects (or throws) as the work would', async () => {
  function* failing(): Generator<void, string, void> {
    yield;
    holdThread(SLICE_MS + 1);
    yield;
    throw new Error('boom');
  }
  assert.throws(() => runAtOnce(failing()), /boom/);
  const out = runPaced(failing(), new Pace());
  assert.ok(out instanceof Promise);
  await assert.rejects(out, /boom/);
});
