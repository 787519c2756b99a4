/**
 * The JSON shape every decoded object must have before any later step touches it, as
 * upstream's typed decoding enforces: ObjectMeta fields of the right JSON types (a label map
 * of strings, a finalizer list of strings...), and a bounded nesting depth. Pure; no I/O.
 */
import { isPlainObject } from './object.js';
import { type Due, runAtOnce } from './pace.js';

/**
 * Deepest nesting of objects and arrays accepted. Upstream's decoder stops at 10000
 * ("exceeded max depth"); V8's recursive JSON.stringify and structuredClone fail near 4000,
 * so orch stops well before that, leaving room for patches to nest one level of this deeper.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * True when value nests objects/arrays deeper than max. Iterative, so safe at any depth; the
 * values of an object are read in place (no array of them), as a map of 100,000 labels has.
 */
export function exceedsDepth(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  return runAtOnce((due) => exceedsDepthSteps(value, max, due));
}

/** Values looked at between two looks at the pace. */
const VALUES_PER_STEP = 4096;

/** exceedsDepth as stepped work (machinery/pace.ts). */
export function* exceedsDepthSteps(value: unknown, max: number, due: Due): Generator<void, boolean, void> {
  const values: object[] = [];
  const depths: number[] = [];
  if (typeof value === 'object' && value !== null) {
    values.push(value);
    depths.push(1);
  }
  let seen = 0;
  while (values.length > 0) {
    const v = values.pop() as Record<string, unknown> | unknown[];
    const depth = depths.pop() as number;
    if (depth > max) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const child = v[i];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(depth + 1);
        }
        if (++seen % VALUES_PER_STEP === 0 && due()) yield;
      }
      continue;
    }
    for (const k in v) {
      if (!Object.hasOwn(v, k)) continue;
      const child = v[k];
      if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
      if (++seen % VALUES_PER_STEP === 0 && due()) yield;
    }
  }
  return false;
}

/** Go's name for a JSON value's type in an UnmarshalTypeError. */
export function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v; // string, number, object
}

type Check = (v: unknown) => boolean;
const isString: Check = (v) => typeof v === 'string';
const isInt: Check = (v) => typeof v === 'number' && Number.isInteger(v);
const isBool: Check = (v) => typeof v === 'boolean';
const isObject: Check = (v) => isPlainObject(v);

/** Go's json.Unmarshal accepts null for any field (the zero value). */
function nullOr(check: Check): Check {
  return (v) => v === null || v === undefined || check(v);
}

// Elements and map values must be present: Go would read a null one as its zero value, which
// orch's validation does not expect, so a null element is refused like a wrong type.
const stringMap: Check = (v) => runAtOnce((due) => stringMapSteps(v, due));

/** stringMap as stepped work: a map may hold 120,000 labels. */
function* stringMapSteps(v: unknown, due: Due): Generator<void, boolean, void> {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) {
    if (typeof v[keys[i]] !== 'string') return false;
    if ((i + 1) % VALUES_PER_STEP === 0 && due()) yield;
  }
  return true;
}
const stringList: Check = (v) => Array.isArray(v) && v.every(isString);

function listOf(fields: Record<string, Check>): Check {
  const checks = Object.entries(fields).map(([k, c]) => [k, nullOr(c)] as const);
  return (v) => Array.isArray(v) && v.every((e) => isPlainObject(e) && checks.every(([k, c]) => c(e[k])));
}

/** ObjectMeta's fields and their Go types, as the message names them. */
const META_FIELDS: Record<string, [Check, string]> = {
  name: [isString, 'string'],
  generateName: [isString, 'string'],
  namespace: [isString, 'string'],
  selfLink: [isString, 'string'],
  uid: [isString, 'types.UID'],
  resourceVersion: [isString, 'string'],
  generation: [isInt, 'int64'],
  creationTimestamp: [isString, 'v1.Time'],
  deletionTimestamp: [isString, 'v1.Time'],
  deletionGracePeriodSeconds: [isInt, 'int64'],
  labels: [stringMap, 'map[string]string'],
  annotations: [stringMap, 'map[string]string'],
  finalizers: [stringList, '[]string'],
  ownerReferences: [
    listOf({ apiVersion: isString, kind: isString, name: isString, uid: isString, controller: isBool, blockOwnerDeletion: isBool }),
    '[]v1.OwnerReference',
  ],
  managedFields: [
    listOf({ manager: isString, operation: isString, apiVersion: isString, time: isString, fieldsType: isString, fieldsV1: isObject, subresource: isString }),
    '[]v1.ManagedFieldsEntry',
  ],
};

/** META_FIELDS as a list (built once: every write's metadata is checked). */
const META_CHECKS: readonly (readonly [string, Check, string])[] = Object.entries(META_FIELDS).map(([field, [check, goType]]) => [field, check, goType]);

/**
 * Why obj's metadata cannot be read as an ObjectMeta (Go's decoding error text), or undefined
 * when it can. Unknown metadata fields are not checked (upstream drops them). Stepped work: a
 * label or annotation map may hold 120,000 entries.
 */
export function* objectMetaTypeErrorSteps(obj: Record<string, unknown>, due: Due): Generator<void, string | undefined, void> {
  const meta = obj.metadata;
  if (meta === undefined || meta === null) return undefined;
  if (!isPlainObject(meta)) return `json: cannot unmarshal ${jsonType(meta)} into Go struct field .metadata of type v1.ObjectMeta`;
  for (const [field, check, goType] of META_CHECKS) {
    const v = meta[field];
    // Go reads null as the zero value of any field.
    const ok = v === null || v === undefined || (check === stringMap ? yield* stringMapSteps(v, due) : check(v));
    if (!ok) return `json: cannot unmarshal ${jsonType(v)} into Go struct field ObjectMeta.metadata.${field} of type ${goType}`;
  }
  return undefined;
}

/**
 * The first shape problem of a decoded object (depth, then metadata types), or undefined; as
 * stepped work (machinery/pace.ts).
 */
export function* objectShapeErrorSteps(obj: Record<string, unknown>, due: Due): Generator<void, string | undefined, void> {
  if (yield* exceedsDepthSteps(obj, MAX_JSON_DEPTH, due)) return `json: exceeded max depth of ${MAX_JSON_DEPTH}`;
  if (due()) yield;
  return yield* objectMetaTypeErrorSteps(obj, due);
}
