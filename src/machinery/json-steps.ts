/**
 * JSON.stringify as stepped work (machinery/pace.ts): the same text, built member by member so
 * that a value with a hundred thousand entries does not hold the thread in one native call. Only
 * requests that have already paused use it; a light write keeps JSON.stringify's speed.
 */
import type { Due } from './pace.js';

/** Members or items encoded between two looks at the pace. */
const ENTRIES_PER_STEP = 2048;

interface Count {
  n: number;
}

/** JSON.stringify(v), pausing between entries when due; undefined where JSON.stringify gives undefined. */
export function* jsonSteps(v: unknown, due: Due): Generator<void, string | undefined, void> {
  return yield* encode(v, due, { n: 0 });
}

/** Values JSON.stringify encodes whole here: scalars, and objects with their own toJSON (Date, Buffer). */
function isLeaf(v: unknown): boolean {
  return v === null || typeof v !== 'object' || typeof (v as { toJSON?: unknown }).toJSON === 'function';
}

function* encode(v: unknown, due: Due, count: Count): Generator<void, string | undefined, void> {
  if (isLeaf(v)) return JSON.stringify(v);
  // Listing a large object's keys and joining its parts are single native calls (~20 ms for
  // 120,000 entries here): each starts a slice of its own rather than ending a spent one.
  if (due()) yield;
  const parts: string[] = [];
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const item = v[i];
      // As JSON.stringify: an item it cannot encode (undefined, a function) is null.
      parts.push((isLeaf(item) ? JSON.stringify(item) : yield* encode(item, due, count)) ?? 'null');
      if (++count.n % ENTRIES_PER_STEP === 0 && due()) yield;
    }
    if (parts.length > ENTRIES_PER_STEP && due()) yield;
    return `[${parts.join(',')}]`;
  }
  const obj = v as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    const item = obj[k];
    const encoded = isLeaf(item) ? JSON.stringify(item) : yield* encode(item, due, count);
    // As JSON.stringify: a member it cannot encode is left out.
    if (encoded !== undefined) parts.push(`${JSON.stringify(k)}:${encoded}`);
    if (++count.n % ENTRIES_PER_STEP === 0 && due()) yield;
  }
  if (parts.length > ENTRIES_PER_STEP && due()) yield;
  return `{${parts.join(',')}}`;
}

/**
 * deepEqual (deep-equal.ts) as stepped work, with the same rules: objects compared by own keys,
 * not key order. A separate walk because deepEqual itself runs on every write and a generator
 * per compared node would cost it more than it compares.
 */
export function* deepEqualSteps(a: unknown, b: unknown, due: Due): Generator<void, boolean, void> {
  return yield* equal(a, b, due, { n: 0 });
}

function* equal(a: unknown, b: unknown, due: Due, count: Count): Generator<void, boolean, void> {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (!(yield* equal(a[i], b[i], due, count))) return false;
      if (++count.n % ENTRIES_PER_STEP === 0 && due()) yield;
    }
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  if (ak.length !== Object.keys(bo).length) return false;
  const ao = a as Record<string, unknown>;
  for (const k of ak) {
    if (!Object.hasOwn(bo, k)) return false;
    const x = ao[k];
    const y = bo[k];
    if (x !== y && !(yield* equal(x, y, due, count))) return false;
    if (++count.n % ENTRIES_PER_STEP === 0 && due()) yield;
  }
  return true;
}
