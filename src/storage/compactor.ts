/**
 * Periodic compaction, as Kubernetes' etcd compactor does it: at every tick, compact to the
 * revision observed one interval earlier, so at least `intervalMs` of history always stays
 * (watchers that fell less than an interval behind can still resume).
 *
 * Observations are timestamped with the injected clock and the target is the newest one at
 * least intervalMs old, so a timer that fires early never compacts too recent history.
 */

import type { Store } from './interface.js';

export interface CompactorOptions {
  /** How much history to keep, and how often to compact. */
  intervalMs: number;
  /** Milliseconds clock; default Date.now. */
  now?: () => number;
  /** Runs fn after ms and returns a cancel function; default an unref'd setTimeout. */
  setTimer?: (fn: () => void, ms: number) => () => void;
  /** Told about a failed compaction (the compactor keeps going); default ignores it. */
  onError?: (err: unknown) => void;
}

type Compactable = Pick<Store, 'currentRevision' | 'compactedRevision' | 'compact'>;

/** Starts compacting store every intervalMs, never past a revision younger than intervalMs; returns stop(), which resolves after any running compaction. */
export function startCompactor(store: Compactable, opts: CompactorOptions): () => Promise<void> {
  const { intervalMs } = opts;
  if (!(intervalMs > 0)) throw new RangeError(`compaction interval must be positive, got ${intervalMs}`);
  const now = opts.now ?? Date.now;
  const setTimer = opts.setTimer ?? defaultSetTimer;
  const onError = opts.onError ?? (() => {});
  // Oldest first; observations[0] is the newest one old enough once a full interval has passed.
  const observations: { at: number; revision: number }[] = [];
  let running: Promise<void> | undefined;
  let stopped = false;
  let cancel = () => {};

  const observe = () => observations.push({ at: now(), revision: store.currentRevision() });

  const tick = () => {
    if (stopped) return;
    observe();
    const cutoff = now() - intervalMs;
    while (observations.length > 1 && observations[1].at <= cutoff) observations.shift();
    const oldest = observations[0];
    // One compaction at a time: a slow one is not stacked on, the next tick catches up.
    if (!running && oldest.at <= cutoff && oldest.revision > store.compactedRevision()) {
      running = store
        .compact(oldest.revision)
        .catch(onError)
        .finally(() => {
          running = undefined;
        });
    }
    cancel = setTimer(tick, intervalMs);
  };

  observe();
  cancel = setTimer(tick, intervalMs);
  return async () => {
    stopped = true;
    cancel();
    await running;
  };
}

function defaultSetTimer(fn: () => void, ms: number): () => void {
  const t = setTimeout(fn, ms);
  // Compaction alone must not keep a process alive.
  t.unref();
  return () => clearTimeout(t);
}
