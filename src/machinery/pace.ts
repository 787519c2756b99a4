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

/**
 * Heavy work takes turns. Paused requests wait in one queue and resume one per loop iteration,
 * each after the poll phase that follows the previous one's slice. Without the queue, every
 * request that paused in the same iteration resumed in the same check phase, back to back:
 * six heavy writes in flight held the thread for six slices (and six steps past them) before
 * /healthz was read again. Waiting requests are at most the requests in flight.
 */
const waiting: (() => void)[] = [];
let turnScheduled = false;

/**
 * Two immediates: a turn requested from an I/O callback (a request body's end) would otherwise
 * run in the same iteration's check phase, before any new I/O is polled.
 */
function scheduleTurn(): void {
  turnScheduled = true;
  setImmediate(() => setImmediate(nextTurn));
}

function nextTurn(): void {
  turnScheduled = false;
  const resume = waiting.shift();
  if (waiting.length > 0) scheduleTurn();
  // The resumed request's slice runs in this callback's microtasks, before the next turn.
  resume?.();
}

/** Resolves on this caller's turn: after the I/O that is ready and after the requests that paused before it. */
function awaitTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!turnScheduled) scheduleTurn();
  });
}

export class Pace {
  private since = performance.now();
  private pausedOnce = false;

  /**
   * True once the request has paused: it is heavy, so its later steps take their stepped forms
   * (which cost a light request more than they save).
   */
  get paused(): boolean {
    return this.pausedOnce;
  }

  /** True when the request has held the thread for a slice since it started or last yielded. */
  due(): boolean {
    return performance.now() - this.since >= SLICE_MS;
  }

  /** Lets timers, I/O and the requests that paused before this one run, then starts a new slice. */
  async yield(): Promise<void> {
    this.pausedOnce = true;
    await awaitTurn();
    this.since = performance.now();
  }
}

/** Whether stepped work should pause here: its request's pace is due (or, run at once, never). */
export type Due = () => boolean;

const NEVER: Due = () => false;

/**
 * Stepped work: a generator that, between its steps, asks `due` and yields only when it is
 * true (`if (due()) yield;`), so work that never pauses pays no resumption.
 */
export type Stepped<T> = (due: Due) => Generator<void, T, void>;

/**
 * Runs stepped work synchronously while the pace is not due, so a light run returns its value
 * without a promise; once it is due, the rest runs asynchronously, letting other work in at
 * each pause. Without a pace it runs at once.
 */
export function runPaced<T>(work: Stepped<T>, pace: Pace | undefined): T | Promise<T> {
  if (pace === undefined) return runAtOnce(work);
  const steps = work(() => pace.due());
  const r = steps.next();
  return r.done ? r.value : finishPaced(steps, pace);
}

async function finishPaced<T>(steps: Generator<void, T, void>, pace: Pace): Promise<T> {
  for (;;) {
    await pace.yield();
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs stepped work to the end at once (its synchronous callers). */
export function runAtOnce<T>(work: Stepped<T>): T {
  const steps = work(NEVER);
  for (let r = steps.next(); ; r = steps.next()) if (r.done) return r.value;
}
