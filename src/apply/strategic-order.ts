/**
 * The list helpers of upstream's strategic merge patch: element kinds, merge-key matching,
 * partitioning a merged list into patch and server-only items, and the ordering rule
 * ($setElementOrder, then the patch's order, then the live list's order).
 *
 * Sorting reproduces Go's sort.SliceStable step for step, because upstream's comparator is not
 * a strict order when an item is missing from the order list, and the result then depends on
 * the algorithm.
 */
import { isPlainObject } from '../machinery/object.js';
import { badArgType, goFormat, goType, listOfListsError, noMergeKey, patchError } from './strategic-errors.js';

export type JsonMap = Record<string, unknown>;
/** The Go type all elements of a list share ('map' for lists of objects). */
export type ElementKind = ReturnType<typeof goType>;

export const DIRECTIVE_MARKER = '$patch';
export const DELETE_DIRECTIVE = 'delete';

/** Go's `==` on two decoded JSON values (only scalars are ever equal). */
export function goEqual(a: unknown, b: unknown): boolean {
  return (a ?? null) === (b ?? null);
}

/** The one Go type of every element of the lists; upstream refuses mixed lists and lists of lists. */
export function sliceElementKind(...lists: unknown[][]): ElementKind {
  let kind: ElementKind | undefined;
  for (const list of lists) {
    for (const v of list) {
      const t = goType(v);
      if (kind === undefined) {
        kind = t;
        if (kind === 'slice') throw listOfListsError();
      } else if (kind !== t) {
        throw patchError(`list element types are not identical: ${goFormat(lists)}`);
      }
    }
  }
  if (kind === undefined) throw patchError('no elements in any of the given slices');
  return kind;
}

/** Index of the first object in list whose mergeKey equals value, or -1. */
export function findMapIndex(list: unknown[], mergeKey: string, value: unknown): number {
  return new MergeKeyIndex(list, mergeKey).find(value);
}

/**
 * The lookups of findMapIndex over one list in constant time each, so merging two lists of n
 * items costs O(n), not O(n²): 20,000 containers must not hold the event loop. Values are
 * keyed as goEqual compares them (undefined as null; objects by identity, never equal in JSON).
 */
export class MergeKeyIndex {
  /** Every position of each merge-key value, ascending; head[k] skips those no longer matching. */
  private readonly positions = new Map<unknown, number[]>();
  private readonly head = new Map<unknown, number>();
  /** The first item that is not an object: upstream's scan fails there unless a match comes first. */
  private readonly firstNonMap: number;

  constructor(
    private readonly list: unknown[],
    private readonly mergeKey: string,
  ) {
    let firstNonMap = -1;
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      if (!isPlainObject(v)) {
        if (firstNonMap < 0) firstNonMap = i;
        continue;
      }
      this.add(v, i);
    }
    this.firstNonMap = firstNonMap;
  }

  /** Records that list[i] (an object) now holds item. */
  add(item: unknown, i: number): void {
    if (!isPlainObject(item) || !Object.hasOwn(item, this.mergeKey)) return;
    const key = item[this.mergeKey] ?? null;
    const at = this.positions.get(key);
    if (at === undefined) this.positions.set(key, [i]);
    else at.push(i);
  }

  /** Index of the first object whose merge key equals value, or -1; as findMapIndex, fails on a non-object before it. */
  find(value: unknown): number {
    const key = value ?? null;
    const at = this.positions.get(key);
    let found = -1;
    if (at !== undefined) {
      // Items merged since they were indexed may have lost their key (a patch can null it).
      let h = this.head.get(key) ?? 0;
      while (h < at.length && !this.matches(at[h], key)) h++;
      this.head.set(key, h);
      if (h < at.length) found = at[h];
    }
    if (this.firstNonMap >= 0 && (found < 0 || this.firstNonMap < found)) throw patchError(`value for key ${this.firstNonMap} is not a map.`);
    return found;
  }

  private matches(i: number, key: unknown): boolean {
    const v = this.list[i];
    return isPlainObject(v) && Object.hasOwn(v, this.mergeKey) && goEqual(v[this.mergeKey], key);
  }
}

/** Position of each key's first item in list (keyOf gives an item's key). */
function firstPositions(list: unknown[], keyOf: (v: unknown) => unknown): Map<unknown, number> {
  const at = new Map<unknown, number>();
  for (let i = 0; i < list.length; i++) {
    const k = keyOf(list[i]) ?? null;
    if (!at.has(k)) at.set(k, i);
  }
  return at;
}

/** Whether two items have equal merge keys (or are equal, for primitives: mergeKey ''). */
export function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return goEqual(left, right);
  if (!isPlainObject(left)) throw badArgType('map', left);
  if (!isPlainObject(right)) throw badArgType('map', right);
  if (!Object.hasOwn(left, mergeKey)) throw noMergeKey(left, mergeKey);
  if (!Object.hasOwn(right, mergeKey)) throw noMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

/** Splits a list of objects into the items kept and the `$patch: delete` items. */
export function extractToDeleteItems(list: unknown[]): { kept: unknown[]; toDelete: unknown[] } {
  const kept: unknown[] = [];
  const toDelete: unknown[] = [];
  for (const v of list) {
    if (!isPlainObject(v)) throw badArgType('map', v);
    (v[DIRECTIVE_MARKER] === DELETE_DIRECTIVE ? toDelete : kept).push(v);
  }
  return { kept, toDelete };
}

/** Items of merged present in partitionBy (patch items) and the others (server-only items). */
export function partitionByPresence(merged: unknown[], partitionBy: unknown[], mergeKey: string): { patchItems: unknown[]; serverOnly: unknown[] } {
  const patchItems: unknown[] = [];
  const serverOnly: unknown[] = [];
  if (mergeKey === '') {
    const inPatch = new Set(partitionBy);
    for (const v of merged) (inPatch.has(v) ? patchItems : serverOnly).push(v);
    return { patchItems, serverOnly };
  }
  const index = new MergeKeyIndex(partitionBy, mergeKey);
  for (const v of merged) {
    if (!isPlainObject(v)) throw badArgType('map', v);
    if (!Object.hasOwn(v, mergeKey)) throw noMergeKey(v, mergeKey);
    (index.find(v[mergeKey]) >= 0 ? patchItems : serverOnly).push(v);
  }
  return { patchItems, serverOnly };
}

/**
 * The distinct scalars of s, first occurrences kept. Go's deduplicateScalars moves the tail into
 * the holes instead, a different order, but callers sort the result by positions every item
 * has (a strict order), so only the set matters, and a Set makes it linear.
 */
export function deduplicateScalars(s: unknown[]): unknown[] {
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (const v of s) {
    const k = v ?? null;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(v);
  }
  return out;
}

/** An item's key for ordering: its merge-key value for objects, itself otherwise. */
function orderKeyOf(mergeKey: string, kind: ElementKind): (v: unknown) => unknown {
  return kind === 'map' ? (v) => (isPlainObject(v) ? v[mergeKey] : null) : (v) => v;
}

/** Sorts toSort by its items' positions in order; `$patch: delete` items go last, unsorted. */
function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: ElementKind): unknown[] {
  let items = toSort;
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    for (const list of [toSort, order]) {
      for (const item of list) {
        if (!isPlainObject(item)) throw badArgType('map', item);
        if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
      }
    }
    ({ kept: items, toDelete } = extractToDeleteItems(toSort));
  }
  // Each item's position in order, looked up once: the comparator then costs O(1).
  const keyOf = orderKeyOf(mergeKey, kind);
  const positions = firstPositions(order, keyOf);
  const sorted = items.map((item) => ({ item, at: positions.get(keyOf(item) ?? null) ?? -1 }));
  goSliceStable(sorted, (a, b) => a.at < 0 || b.at < 0 || a.at < b.at);
  return [...sorted.map((s) => s.item), ...toDelete];
}

/**
 * Interleaves server-only items (left) into patch items (right), both already sorted, keeping
 * each one's relative order; a server-only item goes first only when the live list puts it
 * before the patch item.
 */
function mergeSortedSlice(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: ElementKind): unknown[] {
  const out: unknown[] = [];
  const keyOf = orderKeyOf(mergeKey, kind);
  const positions = firstPositions(serverOrder, keyOf);
  const at = (v: unknown) => positions.get(keyOf(v) ?? null) ?? -1;
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const li = at(left[i]);
    const ri = at(right[j]);
    if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
    else out.push(right[j++]);
  }
  return [...out, ...left.slice(i), ...right.slice(j)];
}

/** Orders patch items by patchOrder and server-only items by serverOrder, then merges both. */
export function normalizeElementOrder(
  patchItems: unknown[],
  serverOnly: unknown[],
  patchOrder: unknown[],
  serverOrder: unknown[],
  mergeKey: string,
  kind: ElementKind,
): unknown[] {
  const patch = normalizeSliceOrder(patchItems, patchOrder, mergeKey, kind);
  const server = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(server, patch, serverOrder, mergeKey, kind);
}

/** Go's sort.SliceStable: insertion sort on blocks of 20, then symmetric merges. */
function goSliceStable<T>(data: T[], less: (a: T, b: T) => boolean): void {
  const lessAt = (i: number, j: number) => less(data[i], data[j]);
  const swap = (i: number, j: number) => {
    [data[i], data[j]] = [data[j], data[i]];
  };
  const insertionSort = (a: number, b: number) => {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && lessAt(j, j - 1); j--) swap(j, j - 1);
  };
  const swapRange = (a: number, b: number, n: number) => {
    for (let i = 0; i < n; i++) swap(a + i, b + i);
  };
  const rotate = (a: number, m: number, b: number) => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      let i = m;
      let j = b;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (lessAt(h, a)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) swap(k, k + 1);
      return;
    }
    if (b - m === 1) {
      let i = a;
      let j = m;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!lessAt(m, h)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) swap(k, k - 1);
      return;
    }
    const mid = (a + b) >>> 1;
    const n = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = n - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = n - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!lessAt(p - c, c)) start = c + 1;
      else r = c;
    }
    const end = n - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };
  const n = data.length;
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    blockSize *= 2;
  }
}
