/**
 * What a custom resource write does to the object before validation, as upstream's decoder:
 * pruning (fields the structural schema does not specify are dropped, unless a node says
 * `x-kubernetes-preserve-unknown-fields`) and then defaulting (absent fields with a `default`
 * get it; a null where the field is not nullable counts as absent when there is a default).
 * apiVersion, kind and metadata at the root and in embedded resources are never pruned.
 */
import { isPlainObject } from '../../machinery/object.js';

type Props = Record<string, unknown>;

const EMBEDDED_META = new Set(['apiVersion', 'kind', 'metadata']);

/** Removes what schema does not specify from value; `root` keeps the object's own apiVersion, kind and metadata. */
export function prune(value: unknown, schema: Props, root = true, pruned: string[] = [], path = ''): string[] {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (isPlainObject(items)) for (const [i, item] of value.entries()) prune(item, items, false, pruned, `${path}[${i}]`);
    return pruned;
  }
  if (!isPlainObject(value)) return pruned;
  const keepMeta = root || schema['x-kubernetes-embedded-resource'] === true;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
  const additional = isPlainObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
  for (const key of Object.keys(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (keepMeta && EMBEDDED_META.has(key)) continue;
    const sub = properties && Object.hasOwn(properties, key) && isPlainObject(properties[key]) ? (properties[key] as Props) : additional;
    if (sub !== undefined) prune(value[key], sub, false, pruned, at);
    else if (!preserve && schema.additionalProperties !== true) {
      delete value[key];
      pruned.push(at);
    }
  }
  return pruned;
}

/** Fills absent fields with their schema's defaults (deep copies), outermost first, as upstream's Default. */
export function applyDefaults(value: unknown, schema: Props): void {
  if (Array.isArray(value)) {
    if (isPlainObject(schema.items)) for (const item of value) applyDefaults(item, schema.items);
    return;
  }
  if (!isPlainObject(value)) return;
  if (isPlainObject(schema.properties)) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (!isPlainObject(sub) || sub.default === undefined) continue;
      const current = Object.hasOwn(value, key) ? value[key] : undefined;
      if (current === undefined || (current === null && sub.nullable !== true)) value[key] = structuredClone(sub.default);
    }
    for (const [key, sub] of Object.entries(schema.properties)) {
      if (isPlainObject(sub) && Object.hasOwn(value, key)) applyDefaults(value[key], sub);
    }
  }
  if (isPlainObject(schema.additionalProperties)) {
    for (const key of Object.keys(value)) {
      if (!(isPlainObject(schema.properties) && Object.hasOwn(schema.properties, key))) applyDefaults(value[key], schema.additionalProperties);
    }
  }
}

/** Whether any node of schema declares a default (a version without any skips the walk). */
export function hasDefaults(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  if (schema.default !== undefined) return true;
  if (isPlainObject(schema.properties) && Object.values(schema.properties).some(hasDefaults)) return true;
  return hasDefaults(schema.items) || hasDefaults(schema.additionalProperties);
}
