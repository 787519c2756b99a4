/**
 * Strategic merge patch (`application/strategic-merge-patch+json`), applied as upstream's
 * StrategicMergeMapPatch applies it on the server: maps merge recursively and null deletes;
 * a list is replaced unless its field's patch strategy is `merge`, then lists of primitives are
 * united and lists of objects merged item by item on the field's merge key. Directives:
 * `$patch: replace | delete` on a map, `$patch: replace | delete` items in a merging list,
 * `$deleteFromPrimitiveList/<field>`, `$setElementOrder/<field>` and `$retainKeys`.
 *
 * Values the patch adds where the object had none are taken without their directives and nulls,
 * as current upstream does (older releases copied them verbatim and relied on decoding to drop
 * them). Inputs are never modified.
 */
import { isPlainObject } from '../machinery/object.js';
import {
  badArgType,
  badPatchType,
  ERR_BAD_PATCH_FORMAT_FOR_PRIMITIVE_LIST,
  ERR_BAD_PATCH_FORMAT_FOR_RETAIN_KEYS,
  ERR_BAD_PATCH_FORMAT_FOR_SET_ELEMENT_ORDER_LIST,
  goFormat,
  goType,
  noMergeKey,
  patchError,
  patchFormatError,
} from './strategic-errors.js';
import {
  DELETE_DIRECTIVE,
  DIRECTIVE_MARKER,
  deduplicateScalars,
  extractToDeleteItems,
  type JsonMap,
  MergeKeyIndex,
  mergeKeyValueEqual,
  normalizeElementOrder,
  partitionByPresence,
  sliceElementKind,
} from './strategic-order.js';
import type { PatchSchema } from './strategic-schema.js';
import { type Due, type Pace, runAtOnce, runPaced } from '../machinery/pace.js';
import { cloneJsonSteps } from './clone.js';
import { atOnce, stepped, type Work } from './work.js';

export { PatchSchema } from './strategic-schema.js';

const REPLACE_DIRECTIVE = 'replace';
const MERGE_DIRECTIVE = 'merge';
const RETAIN_KEYS_STRATEGY = 'retainKeys';
const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

/** The result of applying patch to original under schema (the patched type's definition). */
export function strategicMergePatch(original: JsonMap, patch: JsonMap, schema: PatchSchema): JsonMap {
  return strategicMergePatchConsuming(original, structuredClone(patch), schema);
}

/**
 * strategicMergePatch of a patch the caller made its own copy of (it is changed), so a caller
 * can copy a large patch in a step of its own.
 */
export function strategicMergePatchConsuming(original: JsonMap, ownPatch: JsonMap, schema: PatchSchema): JsonMap {
  return runAtOnce((due) => strategicMergePatchSteps(original, ownPatch, schema, due));
}

/**
 * strategicMergePatchConsuming at the request's pace: the copy of the original and the merge of
 * maps go in pieces (./work.ts), letting other work in between them once the pace is due.
 */
export function strategicMergePatchPaced(original: JsonMap, ownPatch: JsonMap, schema: PatchSchema, pace: Pace | undefined): JsonMap | Promise<JsonMap> {
  return runPaced((due) => strategicMergePatchSteps(original, ownPatch, schema, due), pace);
}

function* strategicMergePatchSteps(original: JsonMap, ownPatch: JsonMap, schema: PatchSchema, due: Due): Generator<void, JsonMap, void> {
  const own = yield* cloneJsonSteps(original, due);
  if (due()) yield;
  return yield* stepped((w) => mergeMap(own, ownPatch, schema, w), due);
}

/** Sets a key, even `__proto__`, as an own property. */
function setKey(m: JsonMap, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(m, key, { value, writable: true, enumerable: true, configurable: true });
  else m[key] = value;
}

/** The strategy other than retainKeys among a field's patch strategies. */
function patchStrategyOf(strategies: string[]): string {
  if (strategies.length <= 1) return strategies[0] === RETAIN_KEYS_STRATEGY ? '' : (strategies[0] ?? '');
  if (strategies.length === 2 && strategies[0] === RETAIN_KEYS_STRATEGY) return strategies[1];
  if (strategies.length === 2 && strategies[1] === RETAIN_KEYS_STRATEGY) return strategies[0];
  throw patchError(`unexpected patch strategy: ${goFormat(strategies)}`);
}

/** The field a `<prefix>/<field>` directive key names. */
function directiveField(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw patchFormatError(prefix === SET_ELEMENT_ORDER_PREFIX ? ERR_BAD_PATCH_FORMAT_FOR_SET_ELEMENT_ORDER_LIST : ERR_BAD_PATCH_FORMAT_FOR_PRIMITIVE_LIST);
  }
  return key.slice(slash + 1);
}

/**
 * A value the patch adds without merging, without its directives: an object carrying `$patch`
 * is dropped (returns undefined), in maps and lists alike. With `nulls`, null map values go too
 * at any depth (an added value has nothing to delete). Maps are changed in place, lists copied;
 * a large value is done in pieces of w.
 */
function removeDirectives(v: unknown, nulls: boolean, w: Work): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    keptItems(v, out, 0, nulls, w);
    return out;
  }
  if (!isPlainObject(v)) return v;
  if (Object.hasOwn(v, DIRECTIVE_MARKER)) return undefined;
  keptEntries(v, w.keys(v), 0, nulls, w);
  return v;
}

function keptItems(v: unknown[], out: unknown[], from: number, nulls: boolean, w: Work): void {
  for (let i = from; i < v.length; i++) {
    if (w.spend()) {
      w.later(keptItems, v, out, i, nulls, w);
      return;
    }
    const kept = removeDirectives(v[i], nulls, w);
    if (kept !== undefined) out.push(kept);
  }
}

function keptEntries(v: JsonMap, keys: string[], from: number, nulls: boolean, w: Work): void {
  for (let i = from; i < keys.length; i++) {
    if (w.spend()) {
      w.later(keptEntries, v, keys, i, nulls, w);
      return;
    }
    const k = keys[i];
    const e = v[k];
    const kept = nulls && e === null ? undefined : removeDirectives(e, nulls, w);
    if (kept === undefined) delete v[k];
    else if (kept !== e) setKey(v, k, kept);
  }
}

/** Takes patch's value for key as it is, less directives and nulls. */
function takePatchValue(original: JsonMap, key: string, value: unknown, w: Work): void {
  const kept = removeDirectives(value, true, w);
  if (kept === undefined) delete original[key];
  else setKey(original, key, kept);
}

/**
 * Merges patch into original (both owned: changed in place), upstream's mergeMap. A map's keys
 * go in pieces of w: what is left of them is merged in later pieces, into the same original.
 */
function mergeMap(original: JsonMap, patch: JsonMap, schema: PatchSchema, w: Work): JsonMap {
  if (Object.hasOwn(patch, DIRECTIVE_MARKER)) {
    const directive = patch[DIRECTIVE_MARKER];
    if (directive === REPLACE_DIRECTIVE) {
      delete patch[DIRECTIVE_MARKER];
      return patch;
    }
    if (directive === DELETE_DIRECTIVE) return {};
    throw badPatchType(directive, patch);
  }
  // Keys, not entries (the loop changes only original): a patch of 100,000 labels makes no pair
  // array. Listed once: the directives handled first delete theirs from the patch.
  const keys = w.keys(patch);
  applyRetainKeys(original, patch);
  mergeOrderedLists(original, patch, keys, schema);
  mergeKeys(original, patch, keys, 0, schema, w);
  return original;
}

function mergeKeys(original: JsonMap, patch: JsonMap, keys: string[], from: number, schema: PatchSchema, w: Work): void {
  for (let i = from; i < keys.length; i++) {
    if (w.spend()) {
      w.later(mergeKeys, original, patch, keys, i, schema, w);
      return;
    }
    const patchKey = keys[i];
    if (!Object.hasOwn(patch, patchKey)) continue;
    const patchValue = patch[patchKey];
    const isDeleteList = patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX);
    const key = isDeleteList ? directiveField(patchKey, DELETE_FROM_PRIMITIVE_LIST_PREFIX) : patchKey;
    if (patchValue === null) {
      delete original[key];
      continue;
    }
    if (typeof patchValue !== 'object' && !isDeleteList) {
      // A scalar replaces whatever was there, as takePatchValue would take it (nothing to strip).
      setKey(original, key, patchValue);
      continue;
    }
    const current = original[key];
    if (!Object.hasOwn(original, key) || goType(current) !== goType(patchValue)) {
      if (!isDeleteList) takePatchValue(original, key, patchValue, w);
      continue;
    }
    if (isPlainObject(current)) {
      const { sub, meta } = schema.lookupForStruct(key, false);
      const merged = patchStrategyOf(meta.strategies) === REPLACE_DIRECTIVE ? patchValue : mergeMap(current, patchValue as JsonMap, sub, w);
      setKey(original, key, merged);
    } else if (Array.isArray(current)) {
      const { sub, meta } = schema.lookupForSlice(key, false);
      const { merged } = mergeList(current, patchValue as unknown[], sub, patchStrategyOf(meta.strategies), meta.mergeKey, isDeleteList, w);
      setKey(original, key, merged);
    } else {
      takePatchValue(original, key, patchValue, w);
    }
  }
}

/**
 * `$retainKeys`: clears the original's fields the list does not name. Every field the patch
 * sets must be named (upstream's `invalid patch format of retainKeys` otherwise).
 */
function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const list = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(list)) throw patchFormatError(ERR_BAD_PATCH_FORMAT_FOR_RETAIN_KEYS);
  const retained = new Set(list);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!retained.has(k)) throw patchFormatError(ERR_BAD_PATCH_FORMAT_FOR_RETAIN_KEYS);
  }
  for (const k of Object.keys(original)) if (!retained.has(k)) delete original[k];
}

/**
 * `$setElementOrder/<field>`: merges the field's patch list (if any) into the original's, then
 * orders the result: items the directive names in its order, the others where the live list
 * had them. The field is then done; the main merge skips it.
 */
function mergeOrderedLists(original: JsonMap, patch: JsonMap, keys: string[], schema: PatchSchema): void {
  // The directives as the patch has them before any is handled (handling one deletes keys).
  const directives: [string, unknown][] = [];
  for (const k of keys) if (k.startsWith(SET_ELEMENT_ORDER_PREFIX)) directives.push([k, patch[k]]);
  for (const [directiveKey, order] of directives) {
    delete patch[directiveKey];
    if (!Array.isArray(order)) throw badArgType('slice', order);
    const key = directiveField(directiveKey, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = Object.hasOwn(original, key);
    const foundPatch = Object.hasOwn(patch, key);
    if (foundOriginal && !Array.isArray(original[key])) throw badArgType('slice', original[key]);
    if (foundPatch && !Array.isArray(patch[key])) throw badArgType('slice', patch[key]);
    const originalList = (foundOriginal ? original[key] : []) as unknown[];
    const patchList = (foundPatch ? patch[key] : []) as unknown[];
    const { sub, meta } = schema.lookupForSlice(key, true);
    const strategy = patchStrategyOf(meta.strategies);
    checkPatchFollowsOrder(patchList, order, meta.mergeKey);
    if (!foundOriginal && !foundPatch) continue;
    let merged: unknown[];
    let live = originalList;
    if (!foundPatch) merged = originalList;
    // The lists are ordered next: they are merged at once.
    else if (!foundOriginal) merged = atOnce((w) => removeDirectives(patchList, false, w)) as unknown[];
    else ({ merged, live } = atOnce((w) => mergeList(originalList, patchList, sub, strategy, meta.mergeKey, false, w)));
    const { patchItems, serverOnly } = partitionByPresence(merged, order, meta.mergeKey);
    const kind = sliceElementKind(originalList, patchList);
    setKey(original, key, normalizeElementOrder(patchItems, serverOnly, order, live, meta.mergeKey, kind));
    delete patch[key];
  }
}

/** The patch list's items (deletions and directives aside) must appear in the directive's order. */
function checkPatchFollowsOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = mergeKey === '' ? patchList : extractToDeleteItems(patchList).kept;
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    if (isPlainObject(items[p]) && Object.hasOwn(items[p] as JsonMap, DIRECTIVE_MARKER)) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(items[p], order[o], mergeKey)) p++;
    o++;
  }
  if (p < items.length && o >= order.length) {
    throw patchError(`The order in patch list:\n${goFormat(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goFormat(order)}\n`);
  }
}

/**
 * A merged list field, and `live`: the original list as upstream leaves it when the merge
 * used its Go backing array in place (deleting an item shifts the later ones left, and the
 * first appended items then land in the freed slots). Upstream orders `$setElementOrder`
 * server-only items by that array, and its tests depend on it.
 */
interface MergedList {
  merged: unknown[];
  live: unknown[];
}

/** A list field: merged when its strategy is merge (or for a deletion list), else replaced. */
function mergeList(original: unknown[], patch: unknown[], elem: PatchSchema, strategy: string, mergeKey: string, isDeleteList: boolean, w: Work): MergedList {
  if (strategy !== MERGE_DIRECTIVE && !isDeleteList) return { merged: patch, live: original };
  if (original.length === 0 && patch.length === 0) return { merged: original, live: original };
  const kind = sliceElementKind(original, patch);
  if (kind !== 'map') {
    if (isDeleteList) {
      const toDelete = new Set(patch);
      return { merged: original.filter((v) => !toDelete.has(v)), live: original };
    }
    const merged = deduplicateScalars([...original, ...patch]);
    const { patchItems, serverOnly } = partitionByPresence(merged, patch, mergeKey);
    return { merged: normalizeElementOrder(patchItems, serverOnly, patch, original, mergeKey, kind), live: original };
  }
  if (mergeKey === '') throw patchError(`cannot merge lists without merge key for ${elem.kindName()}`);
  return mergeObjectList(original as JsonMap[], patch as JsonMap[], mergeKey, elem, w);
}

/**
 * A merging list of objects. `$patch` items first: `delete` removes every original item with
 * that merge key, `replace` makes the patch's other items the whole list. Then each patch item
 * merges into the item with its merge key, or is appended.
 */
function mergeObjectList(original: JsonMap[], patch: JsonMap[], mergeKey: string, elem: PatchSchema, w: Work): MergedList {
  const plain: JsonMap[] = [];
  const toDelete: unknown[] = [];
  let replace = false;
  for (const item of patch) {
    if (!Object.hasOwn(item, DIRECTIVE_MARKER)) {
      plain.push(item);
      continue;
    }
    const directive = item[DIRECTIVE_MARKER];
    if (directive === DELETE_DIRECTIVE) {
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
      toDelete.push(item[mergeKey]);
    } else if (directive === REPLACE_DIRECTIVE) {
      replace = true;
    } else if (directive === MERGE_DIRECTIVE) {
      throw patchError('merging lists cannot yet be specified in the patch');
    } else {
      throw badPatchType(directive, item);
    }
  }
  const { kept, live } = deleteMatching(original, toDelete, mergeKey);
  let length = kept.length;
  const base = replace ? plain : kept;
  const items = replace ? [] : plain;
  const merged: unknown[] = [...base];
  const index = new MergeKeyIndex(merged, mergeKey);
  for (const item of items) {
    if (!Object.hasOwn(item, mergeKey)) throw noMergeKey(item, mergeKey);
    const i = index.find(item[mergeKey]);
    if (i >= 0) {
      merged[i] = mergeMap(merged[i] as JsonMap, item, elem, w);
      index.add(merged[i], i);
    } else {
      merged.push(item);
      index.add(item, merged.length - 1);
      if (length < live.length) live[length++] = item;
    }
  }
  const { patchItems, serverOnly } = partitionByPresence(merged, items, mergeKey);
  return { merged: normalizeElementOrder(patchItems, serverOnly, items, base, mergeKey, 'map'), live };
}

/**
 * Removes every item whose merge key a `$patch: delete` names, as upstream does one item at a
 * time on its Go backing array: `kept` is the list left, `live` that array (kept items first,
 * then what each removal left in the slot it freed: the list's last item at that moment).
 * Computed in one pass instead of a shift per removal.
 */
function deleteMatching(original: JsonMap[], toDelete: unknown[], mergeKey: string): { kept: JsonMap[]; live: unknown[] } {
  if (toDelete.length === 0) return { kept: original, live: [...original] };
  const index = new MergeKeyIndex(original, mergeKey);
  const removed = new Uint8Array(original.length);
  const freed: unknown[] = [];
  let last = original.length - 1;
  for (const value of toDelete) {
    for (let i = index.find(value); i >= 0; i = index.find(value)) {
      // The slot freed by this removal keeps the current last item (upstream's append shift).
      freed.push(original[last]);
      removed[i] = 1;
      original[i] = REMOVED as JsonMap;
      while (last >= 0 && removed[last] === 1) last--;
    }
  }
  const kept = original.filter((_, i) => removed[i] === 0);
  return { kept, live: [...kept, ...freed.reverse()] };
}

/** Stands in for a removed item so the index no longer matches it. */
const REMOVED: JsonMap = Object.freeze({}) as JsonMap;
