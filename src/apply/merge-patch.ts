/** JSON merge patch (RFC 7386): objects merge recursively, null deletes, anything else replaces. */
import { isPlainObject } from '../machinery/object.js';
import { ownValue, setOwn } from '../machinery/own-property.js';
import { type Pace, runPaced } from '../machinery/pace.js';
import { copy } from './clone.js';
import { atOnce, stepped, type Work } from './work.js';

/** The result of merging patch into target; neither input is modified. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  return atOnce((w) => merge(target, patch, w));
}

/**
 * mergePatch at the request's pace: maps are copied and merged in pieces (./work.ts), letting
 * other work in between them once the pace is due.
 */
export function mergePatchPaced(target: unknown, patch: unknown, pace: Pace | undefined): unknown {
  return runPaced(function* (due) {
    return yield* stepped((w) => merge(target, patch, w), due);
  }, pace);
}

function merge(target: unknown, patch: unknown, w: Work): unknown {
  if (!isPlainObject(patch)) return copy(patch, w);
  const out: Record<string, unknown> = {};
  const from = isPlainObject(target) ? target : NOTHING;
  mergeKeys(out, from, w.keys(from), patch, w.keys(patch), 0, w);
  return out;
}

const NOTHING: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

// The target's keys copied (position i below their count), then the patch's merged over them:
// one loop, so that the rests of a map deferred to later pieces keep that order.
function mergeKeys(
  out: Record<string, unknown>,
  target: Record<string, unknown>,
  targetKeys: string[],
  patch: Record<string, unknown>,
  patchKeys: string[],
  from: number,
  w: Work,
): void {
  const n = targetKeys.length;
  for (let i = from; i < n + patchKeys.length; i++) {
    if (w.spend()) {
      w.later(mergeKeys, out, target, targetKeys, patch, patchKeys, i, w);
      return;
    }
    if (i < n) {
      setOwn(out, targetKeys[i], target[targetKeys[i]]);
      continue;
    }
    // Keys, not entries, and scalars taken as they are: a patch of 100,000 labels makes no pair
    // array and no copy per label.
    const k = patchKeys[i - n];
    const v = patch[k];
    if (v === null) delete out[k];
    // Own keys only: `constructor` is absent until given, and `__proto__` is a key, never the prototype.
    else setOwn(out, k, typeof v === 'object' ? merge(ownValue(out, k), v, w) : v);
  }
}
