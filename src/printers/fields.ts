/**
 * Reading fields of plain JSON objects as upstream's typed structs read them: an absent or
 * mistyped field is Go's zero value ("" / 0 / false / empty), a pointer field is undefined.
 */
import { isPlainObject } from '../machinery/object.js';
import { setOwn } from '../machinery/own-property.js';

/** The value at a dotted path, or undefined. */
export function at(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

/** A string field; absent reads as "". */
export function str(obj: unknown, path: string): string {
  const v = at(obj, path);
  return typeof v === 'string' ? v : '';
}

/** An integer field; absent reads as 0. */
export function int(obj: unknown, path: string): number {
  const v = at(obj, path);
  return typeof v === 'number' ? v : 0;
}

/** A pointer-to-integer field: undefined when absent. */
export function optInt(obj: unknown, path: string): number | undefined {
  const v = at(obj, path);
  return typeof v === 'number' ? v : undefined;
}

/** A boolean field; absent reads as false. */
export function bool(obj: unknown, path: string): boolean {
  return at(obj, path) === true;
}

/** A pointer-to-boolean field: undefined when absent. */
export function optBool(obj: unknown, path: string): boolean | undefined {
  const v = at(obj, path);
  return typeof v === 'boolean' ? v : undefined;
}

/** A list field; absent reads as empty. */
export function list(obj: unknown, path: string): unknown[] {
  const v = at(obj, path);
  return Array.isArray(v) ? v : [];
}

/** A map field; absent reads as empty. */
export function map(obj: unknown, path: string): Record<string, unknown> {
  const v = at(obj, path);
  return isPlainObject(v) ? v : {};
}

/** A map of strings (labels, selectors); absent reads as empty, non-string values are skipped. */
export function stringMap(obj: unknown, path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map(obj, path))) if (typeof v === 'string') setOwn(out, k, v);
  return out;
}

/** Whether a pointer/struct field is present (not absent, not null). */
export function has(obj: unknown, path: string): boolean {
  const v = at(obj, path);
  return v !== undefined && v !== null;
}
