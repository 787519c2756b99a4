/**
 * How long a thread really held its event loop. Tests that bound a stall ("no request holds the
 * loop for 100 ms") measure a wait in wall-clock time, but on a machine shared with other work
 * (concurrent test files, other processes on two cores) a runnable thread can also wait for a
 * core, which is not the code under test holding its loop. Linux counts, per thread, the time it
 * spent runnable but not running (/proc/<pid>/task/<tid>/schedstat, second field, nanoseconds):
 * a stall counts as its wall-clock time less what the threads involved waited for a core in it.
 * Work, blocking system calls and GC pauses all still count. Where schedstat cannot be read
 * (not Linux), wall-clock time alone is used.
 */
import { readFileSync } from 'node:fs';

/**
 * Milliseconds the thread has waited for a core so far: the calling thread, or the main thread of
 * process `pid` (whose thread id is its pid). Undefined where the kernel does not say.
 */
export function coreWaitMs(pid?: number): number | undefined {
  try {
    const path = pid === undefined ? '/proc/thread-self/schedstat' : `/proc/${pid}/task/${pid}/schedstat`;
    const ns = Number(readFileSync(path, 'latin1').split(' ')[1]);
    return Number.isFinite(ns) ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}

/** A wall-clock wait less the time spent waiting for a core between two coreWaitMs readings (summed over the threads involved). */
export function heldMs(wallMs: number, waitBefore: number | undefined, waitAfter: number | undefined): number {
  if (waitBefore === undefined || waitAfter === undefined) return wallMs;
  return Math.max(0, wallMs - (waitAfter - waitBefore));
}

/**
 * Runs fn while a ticker every `everyMs` in this thread records the longest gap between its
 * ticks (the event loop held), each gap counted as heldMs.
 */
export async function longestStall<T>(fn: () => Promise<T>, everyMs = 5): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let lastWait = coreWaitMs();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    const wait = coreWaitMs();
    stallMs = Math.max(stallMs, heldMs(now - last, lastWait, wait));
    last = now;
    lastWait = wait;
  }, everyMs);
  try {
    const result = await fn();
    return { result, stallMs };
  } finally {
    clearInterval(ticker);
  }
}
