/**
 * The key order upstream's encoder writes a typed object in: Go struct order, which is `kind`,
 * `apiVersion` (TypeMeta, inlined), `metadata`, then the type's own fields, and within metadata
 * ObjectMeta's field order. Clients that compare bodies byte for byte, or read the first keys of
 * a stream, see upstream's layout. Fields after metadata keep the order they came in (clients
 * send them in struct order). Custom resources are unstructured upstream (keys sorted as Go
 * maps are) and do not use this.
 */
import type { Obj } from './object.js';

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

/**
 * metadata in ObjectMeta order (fields it does not know keep their order, after the known ones).
 * Built with Object.fromEntries, which defines keys: a stored `__proto__` key stays a key.
 */
export function metadataInGoOrder(meta: Record<string, unknown>): Record<string, unknown> {
  const entries: [string, unknown][] = [];
  for (const k of OBJECT_META_ORDER) if (Object.hasOwn(meta, k) && meta[k] !== undefined) entries.push([k, meta[k]]);
  for (const k of Object.keys(meta)) if (!KNOWN_META.has(k) && meta[k] !== undefined) entries.push([k, meta[k]]);
  return Object.fromEntries(entries);
}

/** A shallow copy of obj with kind, apiVersion and metadata first, metadata in ObjectMeta order. */
export function inGoOrder(obj: Obj): Obj {
  const { kind, apiVersion, metadata, ...rest } = obj;
  const head: Obj = {};
  if (kind !== undefined) head.kind = kind;
  if (apiVersion !== undefined) head.apiVersion = apiVersion;
  if (metadata !== undefined)
    head.metadata = metadata !== null && typeof metadata === 'object' ? metadataInGoOrder(metadata as Record<string, unknown>) : metadata;
  // Spread defines keys (unlike Object.assign, which would run a `__proto__` setter).
  return { ...head, ...rest };
}
