/**
 * The pace of one request's work on the one JavaScript thread. A write within the size limits
 * can still be heavy (a map of 120,000 labels costs tens of milliseconds in each of decoding,
 * checking, field ownership, validation and encoding); while its steps run, no other request is
 * served. Between steps the pipeline asks `due()`, and once the request has held the thread for
 * a slice it yields (setImmediate: after the I/O callbacks that are ready), so /healthz and
 * other requests are answered meanwhile.
 *
 * A small request's steps are over long before a slice ends: it never yields, and each check is
 * one clock read. Call sites write `if (pace?.due()) await pace.yield();` so that a request that
 * does not yield does not pay for an await either.
 */

/** How long a request's steps may hold the thread before it lets other work run. */
export const SLICE_MS = 20;

export class Pace {
  private since = performance.now();

  /** True when the request has held the thread for a slice since it started or last yielded. */
  due(): boolean {
    return performance.now() - this.since >= SLICE_MS;
  }

  /**
   * Lets timers, I/O and other requests run, then starts a new slice. Two immediates: work
   * resumed from an I/O callback (a request body's end) would otherwise run its next step in
   * the same loop iteration's check phase, before any new I/O is polled.
   */
  async yield(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
    this.since = performance.now();
  }
}

/**
 * Runs work written as steps (a generator that yields between them): synchronously while the
 * pace is not due, so a light run returns its value without a promise; once it is due, the rest
 * runs asynchronously, yielding whenever the pace is due again. Without a pace it runs at once.
 */
export function runPaced<T>(steps: Generator<void, T, void>, pace: Pace | undefined): T | Promise<T> {
  for (let r = steps.next(); ; r = steps.next()) {
    if (r.done) return r.value;
    if (pace?.due()) return finishPaced(steps, pace);
  }
}

async function finishPaced<T>(steps: Generator<void, T, void>, pace: Pace): Promise<T> {
  await pace.yield();
  for (let r = steps.next(); ; r = steps.next()) {
    if (r.done) return r.value;
    if (pace.due()) await pace.yield();
  }
}

/** Runs steps to the end at once (the synchronous callers of stepped work). */
export function runAtOnce<T>(steps: Generator<void, T, void>): T {
  for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
}
