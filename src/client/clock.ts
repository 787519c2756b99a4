/**
 * Time for client machinery (rate limiter, backoff, reflector, leader election), injected so
 * tests control it. The shape matches the scheduler's Clock, so one object serves both.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls fn once after ms; returns a cancel function. */
  setTimer(ms: number, fn: () => void): () => void;
}

/** The real clock; its timers never keep the process alive. */
export const REAL_CLOCK: Clock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return () => clearTimeout(t);
  },
};

/** Resolves after ms, or at once when the signal aborts (never rejects). */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const cancel = clock.setTimer(Math.max(0, ms), done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
