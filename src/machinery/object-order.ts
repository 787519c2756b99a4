/**
 * The key order upstream's encoder writes a typed object in: Go struct order, which is `kind`,
 * `apiVersion` (TypeMeta, inlined), `metadata`, then the type's own fields, and within metadata
 * ObjectMeta's field order. Clients that compare bodies byte for byte, or read the first keys of
 * a stream, see upstream's layout. Fields after metadata keep the order they came in (clients
 * send them in struct order). Custom resources are unstructured upstream (keys sorted as Go
 * maps are) and do not use this.
 */
import { jsonSteps } from './json-steps.js';
import type { Obj } from './object.js';
import type { Due } from './pace.js';

/** k8s.io/apimachinery ObjectMeta, in struct order. */
const OBJECT_META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'clusterName',
  'managedFields',
] as const;

const KNOWN_META: ReadonlySet<string> = new Set(OBJECT_META_ORDER);

/** ObjectMeta keys that precede resourceVersion, all strings: what a splice of the version skips. */
export const META_KEYS_BEFORE_RESOURCE_VERSION: ReadonlySet<string> = new Set(OBJECT_META_ORDER.slice(0, OBJECT_META_ORDER.indexOf('resourceVersion')));

/** metadata's keys that hold a value, in ObjectMeta order (fields it does not know keep their order, after the known ones). */
function metadataKeysInGoOrder(meta: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const k of OBJECT_META_ORDER) if (Object.hasOwn(meta, k) && meta[k] !== undefined) keys.push(k);
  for (const k of Object.keys(meta)) if (!KNOWN_META.has(k) && meta[k] !== undefined) keys.push(k);
  return keys;
}

/**
 * metadata in ObjectMeta order. Built with Object.fromEntries, which defines keys: a stored
 * `__proto__` key stays a key.
 */
export function metadataInGoOrder(meta: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(metadataKeysInGoOrder(meta).map((k) => [k, meta[k]]));
}

/**
 * A shallow copy of obj with kind, apiVersion and metadata first, metadata in ObjectMeta order.
 * Built key by key: spreading a rest object into a literal cost ~20 us for an Event's 15 keys
 * (V8), this ~1 us, and every write's answer and every decode goes through here.
 */
export function inGoOrder(obj: Obj): Obj {
  const out: Obj = {};
  if (obj.kind !== undefined) out.kind = obj.kind;
  if (obj.apiVersion !== undefined) out.apiVersion = obj.apiVersion;
  const metadata = obj.metadata;
  if (metadata !== undefined)
    out.metadata =
      metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? metadataInGoOrder(metadata as Record<string, unknown>) : metadata;
  for (const k of Object.keys(obj)) {
    if (k === 'kind' || k === 'apiVersion' || k === 'metadata') continue;
    // A stored `__proto__` key stays a key: defined, since assigning it would run the prototype setter.
    if (k === '__proto__') Object.defineProperty(out, k, { value: obj[k], enumerable: true, writable: true, configurable: true });
    else out[k] = obj[k];
  }
  return out;
}

/** `,"key":value` (no comma for the first member) appended to json, or json unchanged when JSON omits the value (undefined). */
function member(json: string, key: string, value: unknown): string {
  const encoded = JSON.stringify(value);
  if (encoded === undefined) return json;
  return `${json.length > 1 ? `${json},` : json}${JSON.stringify(key)}:${encoded}`;
}

/** metadata as JSON in ObjectMeta order, without the key `omit`. */
function metadataJson(meta: Record<string, unknown>, omit: string | undefined): string {
  let json = '{';
  for (const k of metadataKeysInGoOrder(meta)) if (k !== omit) json = member(json, k, meta[k]);
  return `${json}}`;
}

/**
 * JSON.stringify(inGoOrder(obj)) without building the reordered copies (every write encodes
 * its object for storage this way), leaving out metadata's key `omitFromMetadata` (the
 * resourceVersion, which storage never holds). Member values are encoded by JSON.stringify.
 */
export function goOrderedJson(obj: Obj, omitFromMetadata?: string): string {
  let json = '{';
  json = member(json, 'kind', obj.kind);
  json = member(json, 'apiVersion', obj.apiVersion);
  const metadata = obj.metadata;
  if (metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata)) {
    json = `${json.length > 1 ? `${json},` : json}"metadata":${metadataJson(metadata as Record<string, unknown>, omitFromMetadata)}`;
  } else {
    json = member(json, 'metadata', metadata);
  }
  for (const k of Object.keys(obj)) if (k !== 'kind' && k !== 'apiVersion' && k !== 'metadata') json = member(json, k, obj[k]);
  return `${json}}`;
}

/**
 * goOrderedJson as stepped work (machinery/pace.ts), for a request that has already paused: the
 * same text, with member values encoded in steps (json-steps.ts). goOrderedJson itself stays
 * one JSON.stringify per member: a generator per member would cost every write a few µs.
 */
export function* goOrderedJsonSteps(obj: Obj, omitFromMetadata: string | undefined, due: Due): Generator<void, string, void> {
  const ordered = inGoOrder(obj);
  const meta = ordered.metadata;
  if (omitFromMetadata !== undefined && meta !== null && typeof meta === 'object' && Object.hasOwn(meta, omitFromMetadata)) {
    // inGoOrder's metadata is its own copy.
    delete (meta as Record<string, unknown>)[omitFromMetadata];
  }
  return (yield* jsonSteps(ordered, due)) as string;
}
