/**
 * A deep copy of a JSON value in pieces (./work.ts): structuredClone copies a map of 100,000
 * labels in one call that holds the thread for tens of milliseconds.
 */
import { setOwn } from '../machinery/own-property.js';
import type { Due } from '../machinery/pace.js';
import { stepped, type Work } from './work.js';

/** A deep copy of a JSON value, pausing between pieces when due. */
export function* cloneJsonSteps<T>(v: T, due: Due): Generator<void, T, void> {
  return (yield* stepped((w) => copy(v, w), due)) as T;
}

/** A deep copy of a JSON value as part of a walk's work (complete once the work is drained). */
export function copy(v: unknown, w: Work): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    items(v, out, 0, w);
    return out;
  }
  const out: Record<string, unknown> = {};
  entries(v as Record<string, unknown>, w.keys(v), out, 0, w);
  return out;
}

function items(v: unknown[], out: unknown[], from: number, w: Work): void {
  for (let i = from; i < v.length; i++) {
    if (w.spend()) {
      w.later(items, v, out, i, w);
      return;
    }
    out.push(copy(v[i], w));
  }
}

function entries(v: Record<string, unknown>, keys: string[], out: Record<string, unknown>, from: number, w: Work): void {
  for (let i = from; i < keys.length; i++) {
    if (w.spend()) {
      w.later(entries, v, keys, out, i, w);
      return;
    }
    setOwn(out, keys[i], copy(v[keys[i]], w));
  }
}
