/**
 * Typed reads of the JSON-shaped objects core validation and defaulting walk. A field of the
 * wrong JSON type reads as absent (Go's zero value): typed decoding reports type errors before
 * a strategy runs, and a rule must never crash on one it did not expect.
 */
import { isPlainObject } from '../../machinery/object.js';
import { setOwn } from '../../machinery/own-property.js';

export type Rec = Record<string, unknown>;

/** A string field, or '' (Go's zero string). */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

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

/** A number field, or undefined when absent (a Go pointer to a number). */
export const numOrNil = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** A number field, or 0 (Go's zero number). */
export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** A map[string]string field, or undefined when absent. */
export function strMap(v: unknown): Record<string, string> | undefined {
  if (!isPlainObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) setOwn(out, k, str(x));
  return out;
}

/** True when the field holds a value (a non-nil Go pointer). */
export const isSet = (v: unknown): boolean => v !== undefined && v !== null;

/** The object at obj[key], created when absent, for defaulting in place. */
export function child(obj: Rec, key: string): Rec {
  if (!isPlainObject(obj[key])) obj[key] = {};
  return obj[key] as Rec;
}

/** The objects of a list field, for defaulting in place (non-objects are left alone). */
export function childRecords(obj: Rec, key: string): Rec[] {
  return list(obj[key]).filter(isPlainObject);
}
