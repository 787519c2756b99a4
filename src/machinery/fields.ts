/**
 * Untyped reads of JSON-shaped objects as upstream's typed structs read them: a field that is
 * absent or of the wrong JSON type reads as Go's zero value ("" / 0 / false / empty), and a
 * pointer field as undefined. Typed decoding reports type errors before a strategy or printer
 * runs, so a rule must never crash on a value it did not expect.
 *
 * Value readers take the field's value (`str(spec.type)`); the `...At` readers take an object
 * and a dotted path (`strAt(pod, 'spec.nodeName')`) and are the same readers over valueAt.
 */
import { setOwn } from './own-property.js';
import { isPlainObject } from './object.js';

export type Rec = Record<string, unknown>;

/** The value at a dotted path of a JSON object, or undefined when any step is not an object. */
export function valueAt(obj: unknown, path: string): unknown {
  return valueAlong(obj, path.split('.'));
}

/** valueAt over a path already split into its steps. */
function valueAlong(obj: unknown, parts: readonly string[]): unknown {
  let cur: unknown = obj;
  for (const part of parts) {
    if (!isPlainObject(cur)) return undefined;
    cur = Object.hasOwn(cur, part) ? cur[part] : undefined;
  }
  return cur;
}

/** A reader of the value at a fixed dotted path (split once: field getters run on every write and selector match). */
export function pathReader(path: string): (obj: unknown) => unknown {
  const parts = path.split('.');
  return (obj) => valueAlong(obj, parts);
}

/** A string field, or '' (Go's zero string). */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A number field, or 0 (Go's zero number). */
export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** A number field, or undefined when absent (a Go pointer to a number). */
export const numOrNil = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** A boolean field; anything but true reads as false. */
export const bool = (v: unknown): boolean => v === true;

/** A boolean field, or undefined when absent (a Go pointer to a bool). */
export const boolOrNil = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

/** An object field, or an empty object. */
export const rec = (v: unknown): Rec => (isPlainObject(v) ? v : {});

/** An object field, or undefined when absent or null (a Go pointer to a struct). */
export const recOrNil = (v: unknown): Rec | undefined => (isPlainObject(v) ? v : undefined);

/** A list field, or []. */
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A list of objects (non-objects read as empty objects). */
export const records = (v: unknown): Rec[] => list(v).map(rec);

/** A list of strings (non-strings read as ''). */
export const strings = (v: unknown): string[] => list(v).map(str);

/** True when the field holds a value (a non-nil Go pointer). */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** A map[string]string field as decoding reads it (non-strings read as ''), or undefined when absent. */
export function strMap(v: unknown): Record<string, string> | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) setOwn(out, k, str(x));
  return out;
}

/** The string entries of a map (labels, selectors) for display; absent reads as empty, non-strings are skipped. */
export function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(rec(v))) if (typeof x === 'string') setOwn(out, k, x);
  return out;
}

/** The object at obj[key], created when absent, for defaulting in place. */
export function child(obj: Rec, key: string): Rec {
  if (!isPlainObject(obj[key])) obj[key] = {};
  return obj[key] as Rec;
}

/** The objects of a list field, for defaulting in place (non-objects are left alone). */
export function childRecords(obj: Rec, key: string): Rec[] {
  return list(obj[key]).filter(isPlainObject);
}

/** str of the value at path. */
export const strAt = (obj: unknown, path: string): string => str(valueAt(obj, path));
/** num of the value at path. */
export const numAt = (obj: unknown, path: string): number => num(valueAt(obj, path));
/** numOrNil of the value at path. */
export const numOrNilAt = (obj: unknown, path: string): number | undefined => numOrNil(valueAt(obj, path));
/** bool of the value at path. */
export const boolAt = (obj: unknown, path: string): boolean => bool(valueAt(obj, path));
/** boolOrNil of the value at path. */
export const boolOrNilAt = (obj: unknown, path: string): boolean | undefined => boolOrNil(valueAt(obj, path));
/** rec of the value at path. */
export const recAt = (obj: unknown, path: string): Rec => rec(valueAt(obj, path));
/** list of the value at path. */
export const listAt = (obj: unknown, path: string): unknown[] => list(valueAt(obj, path));
/** stringMap of the value at path. */
export const stringMapAt = (obj: unknown, path: string): Record<string, string> => stringMap(valueAt(obj, path));
/** isSet of the value at path. */
export const isSetAt = (obj: unknown, path: string): boolean => isSet(valueAt(obj, path));
