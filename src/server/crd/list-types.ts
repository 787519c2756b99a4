/**
 * Upstream's list-type validation of custom resources (ValidateListSetsAndMaps): a list with
 * `x-kubernetes-list-type: set` may not repeat an item, one with `map` may not repeat the
 * values of its `x-kubernetes-list-map-keys`; each repeat is a Duplicate at its index.
 */
import { type FieldError, PrintedValue } from '../../machinery/status.js';
import { isPlainObject } from '../../machinery/object.js';
import { deepEqual } from '../../machinery/deep-equal.js';

type Props = Record<string, unknown>;

/** Whether any node of schema declares a set or map list (versions without one skip the walk). */
export function hasListTypes(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  const t = schema['x-kubernetes-list-type'];
  if (t === 'set' || t === 'map') return true;
  if (isPlainObject(schema.properties) && Object.values(schema.properties).some(hasListTypes)) return true;
  return hasListTypes(schema.items) || hasListTypes(schema.additionalProperties);
}

/** A map item's keys as Go's %#v prints the map[string]interface{} upstream reports. */
function keysText(keys: readonly string[], item: Props): PrintedValue {
  const parts = [...keys].sort().map((k) => `${JSON.stringify(k)}:${JSON.stringify(item[k] ?? null)}`);
  return new PrintedValue(`map[string]interface {}{${parts.join(', ')}}`);
}

function checkList(list: unknown[], schema: Props, path: string, errs: FieldError[]): void {
  const type = schema['x-kubernetes-list-type'];
  if (type === 'set') {
    list.forEach((item, i) => {
      if (list.slice(0, i).some((prev) => deepEqual(prev, item))) errs.push({ type: 'FieldValueDuplicate', field: `${path}[${i}]`, value: item });
    });
  } else if (type === 'map') {
    const keys = Array.isArray(schema['x-kubernetes-list-map-keys']) ? (schema['x-kubernetes-list-map-keys'] as string[]) : [];
    const seen: Props[] = [];
    list.forEach((item, i) => {
      if (!isPlainObject(item)) return;
      if (seen.some((prev) => keys.every((k) => deepEqual(prev[k], item[k])))) {
        errs.push({ type: 'FieldValueDuplicate', field: `${path}[${i}]`, value: keysText(keys, item) });
      }
      seen.push(item);
    });
  }
}

/** The Duplicate errors of every set and map list in value under schema. */
export function listTypeErrors(value: unknown, schema: Props, path = '', errs: FieldError[] = []): FieldError[] {
  if (Array.isArray(value)) {
    checkList(value, schema, path, errs);
    const items = schema.items;
    if (isPlainObject(items)) for (const [i, item] of value.entries()) listTypeErrors(item, items, `${path}[${i}]`, errs);
    return errs;
  }
  if (!isPlainObject(value)) return errs;
  const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
  const additional = isPlainObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
  for (const [key, v] of Object.entries(value)) {
    const sub = properties && Object.hasOwn(properties, key) && isPlainObject(properties[key]) ? (properties[key] as Props) : additional;
    if (sub !== undefined) listTypeErrors(v, sub, path === '' ? key : `${path}.${key}`, errs);
  }
  return errs;
}
