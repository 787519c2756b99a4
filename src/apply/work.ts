/**
 * A walk's work in bounded pieces. The typed walkers, field sets and patches are plain
 * recursive functions (a generator per visited node would cost small objects more than their
 * walk); what makes them pausable is that every loop over a value's entries counts what it
 * visits, and once a piece of PIECE entries is spent, each loop still open defers the rest of
 * itself and returns. The deferred rests then run one after another, each a fresh piece, and
 * between pieces the request's pace is asked whether to let other work in.
 *
 * A small object is walked in its first piece: it pays one counter per entry and never defers.
 * A deferred rest writes into the same containers (outputs, sets, error lists) that the loop was
 * filling, so a walk's result is complete once its work is drained. Each container is filled by
 * one loop (one function for all of its phases, e.g. a map's lhs keys then its rhs keys), whose
 * rests follow one another: the order within a container is the order of a walk at once. A
 * decision that needs a container's end (is it empty?) is made as for a non-empty one when the
 * container went on in later pieces; each walk says how that is safe for it.
 */
import type { Due } from '../machinery/pace.js';

/** Maps with more keys than this are large: listing their keys is work counted in itself. */
export const LARGE_MAP = 256;

/** Entries a piece visits before the loops it is in defer their rest (about a millisecond of walking). */
export const PIECE = 2048;

/** The piece size in force (tests shrink it so that every walk defers at every level). */
let pieceSize = PIECE;

/**
 * Runs f with pieces of n entries: a test's way of walking small values as large ones are
 * walked. For an async f, until its promise settles.
 */
export function withPieceSize<T>(n: number, f: () => T): T {
  const before = pieceSize;
  pieceSize = n;
  let out: T;
  try {
    out = f();
  } catch (e) {
    pieceSize = before;
    throw e;
  }
  if (!(out instanceof Promise)) {
    pieceSize = before;
    return out;
  }
  return out.finally(() => {
    pieceSize = before;
  }) as T;
}

export class Work {
  private spent = 0;
  private readonly piece = pieceSize;
  /** How many rests were deferred so far: a caller tells whether a call left work behind. */
  deferred = 0;
  // Made on the first deferral: most walks never defer.
  private queue: (() => void)[] | undefined;
  private head = 0;

  /** Counts one entry visited; true when the piece is spent: the loop defers its rest and returns. */
  spend(): boolean {
    return ++this.spent > this.piece;
  }

  /** Counts n entries' worth of work done at once (sorting a run). */
  spendMany(n: number): void {
    this.spent += n;
  }

  /**
   * A map's own keys. Listing the keys of a map of 100,000 entries is one call of about 20 ms
   * (V8 sorts a large map's keys by insertion): it counts as that many entries, so the next
   * loop step starts a new piece and no two such lists share one.
   */
  keys(m: object): string[] {
    const keys = Object.keys(m);
    if (keys.length > LARGE_MAP) this.spent += keys.length;
    return keys;
  }

  /** The rest of a loop, run after the rests deferred before it, in a piece of its own. */
  defer(rest: () => void): void {
    this.queue ??= [];
    this.queue.push(rest);
    this.deferred++;
  }

  /**
   * Defers f(...args). Loops call this rather than making the closure themselves: a closure
   * over a loop's variables makes V8 allocate those variables anew for every entry.
   */
  later<A extends unknown[]>(f: (...args: A) => void, ...args: A): void {
    this.defer(() => f(...args));
  }

  /** True when a rest is waiting. */
  pending(): boolean {
    return this.queue !== undefined && this.head < this.queue.length;
  }

  /** Runs every deferred rest; between pieces it pauses when due (machinery/pace.ts). */
  *drain(due: Due): Generator<void, void, void> {
    while (this.pending()) {
      if (due()) yield;
      this.runNext();
    }
    this.reset();
  }

  /** Runs every deferred rest at once (synchronous callers). */
  finish(): void {
    if (this.queue === undefined) return;
    while (this.pending()) this.runNext();
    this.reset();
  }

  /** True when a list of n items is to be sorted in pieces rather than at once. */
  large(n: number): boolean {
    return n > this.piece;
  }

  /** Items per natively sorted run of a sort in pieces. */
  get sortRun(): number {
    return Math.min(PIECE / 2, this.piece);
  }

  private runNext(): void {
    const queue = this.queue as (() => void)[];
    const rest = queue[this.head];
    // Released as it runs: a long walk does not keep its finished rests' closures.
    queue[this.head++] = NOTHING;
    this.spent = 0;
    rest();
  }

  private reset(): void {
    this.queue = undefined;
    this.head = 0;
    this.spent = 0;
  }
}

const NOTHING = (): void => {};

/** Runs work(w) to the end at once: the synchronous form of a walk written for Work. */
export function atOnce<T>(work: (w: Work) => T): T {
  const w = new Work();
  const out = work(w);
  w.finish();
  return out;
}

/** Steps run with `yield*` from a stepped caller (machinery/pace.ts): a generator, or work already done. */
export type Steps<T> = Iterator<void, T, void> & Iterable<void>;

/**
 * Runs work(w) and drains its rests, pausing when due, then gives then(result) (the result
 * itself without then): the stepped form of a walk written for Work. A walk that left nothing
 * for later is done without a generator.
 */
export function stepped<R>(work: (w: Work) => R, due: Due): Steps<R>;
export function stepped<R, T>(work: (w: Work) => R, due: Due, then: (r: R) => T): Steps<T>;
export function stepped<R, T>(work: (w: Work) => R, due: Due, then?: (r: R) => T): Steps<R | T> {
  const w = new Work();
  const out = work(w);
  if (w.pending()) return drainThen(w, out, due, then);
  return new Done(then === undefined ? out : then(out));
}

function* drainThen<R, T>(w: Work, out: R, due: Due, then: ((r: R) => T) | undefined): Generator<void, R | T, void> {
  yield* w.drain(due);
  return then === undefined ? out : then(out);
}

/** The value of steps run to their end at once, never pausing (synchronous callers). */
export function finished<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

const NEVER_DUE = (): boolean => false;

/** A due that never is: steps run at once. */
export const atOnceDue = NEVER_DUE;

/** Steps already done: `yield*` over them gives their value at once. */
export class Done<T> implements Iterator<void, T, void> {
  constructor(private readonly value: T) {}

  next(): IteratorResult<void, T> {
    return { done: true, value: this.value };
  }

  [Symbol.iterator](): this {
    return this;
  }
}

/**
 * Sorts items (in place when they fit a piece) and passes the sorted list to then: at once for a
 * piece's worth, else as a merge sort whose runs and merges are pieces of their own.
 */
export function sortThen<T>(items: T[], cmp: (a: T, b: T) => number, w: Work, then: (sorted: T[]) => void): void {
  if (!w.large(items.length)) {
    if (items.length > 1) items.sort(cmp);
    then(items);
    return;
  }
  new PiecewiseSort(items, cmp, w, then).run();
}

// Bottom-up merge sort: runs of a piece sorted natively, then passes merging pairs of runs.
class PiecewiseSort<T> {
  private from: T[];
  private to: T[];
  private readonly run0: number;
  private width: number;
  private lo = 0;
  private i = 0;
  private j = 0;
  private k = 0;
  private merging = false;
  private sortedRuns = 0;

  constructor(
    items: T[],
    private readonly cmp: (a: T, b: T) => number,
    private readonly w: Work,
    private readonly then: (sorted: T[]) => void,
  ) {
    this.from = items;
    this.to = new Array<T>(items.length);
    this.run0 = w.sortRun;
    this.width = this.run0;
  }

  run(): void {
    const n = this.from.length;
    const { cmp, w } = this;
    while (this.sortedRuns * this.run0 < n) {
      if (w.spend()) {
        this.defer();
        return;
      }
      const start = this.sortedRuns * this.run0;
      const run = this.from.slice(start, start + this.run0).sort(cmp);
      for (let x = 0; x < run.length; x++) this.from[start + x] = run[x];
      w.spendMany(run.length);
      this.sortedRuns++;
    }
    while (this.width < n) {
      // Merging [lo, mid) and [mid, hi) of from into to, at i, j and k.
      while (this.lo < n) {
        const mid = Math.min(this.lo + this.width, n);
        const hi = Math.min(this.lo + 2 * this.width, n);
        const { from, to } = this;
        if (!this.merging) {
          this.merging = true;
          this.i = this.lo;
          this.j = mid;
          this.k = this.lo;
        }
        while (this.k < hi) {
          if (w.spend()) {
            this.defer();
            return;
          }
          if (this.j >= hi || (this.i < mid && cmp(from[this.i], from[this.j]) <= 0)) to[this.k++] = from[this.i++];
          else to[this.k++] = from[this.j++];
        }
        this.lo = hi;
        this.merging = false;
      }
      [this.from, this.to] = [this.to, this.from];
      this.width *= 2;
      this.lo = 0;
    }
    this.then(this.from);
  }

  private defer(): void {
    this.w.defer(() => this.run());
  }
}
