/**
 * JSON values as structured-merge-diff sees them: its total order (value.Compare), its JSON
 * encoding (jsoniter compatible with encoding/json: HTML-escaped strings, sorted map keys) and
 * its human form (value.ToString) used in conflict paths.
 */
import { compareGoStrings, goQuote } from '../../machinery/validation.js';

/** A map value: a JSON object (not an array, not null). */
export function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** 0 for equal values; numbers < strings < booleans < lists < maps < null, as value.Compare. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0:
      return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 1:
      return compareGoStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3:
      return compareLists(a as unknown[], b as unknown[]);
    case 4:
      return compareMaps(a as Record<string, unknown>, b as Record<string, unknown>);
    default:
      return 0;
  }
}

function rank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isMap(v)) return 4;
  return 5;
}

function compareLists(a: unknown[], b: unknown[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
}

// MapCompare zips both maps in lexical key order: the side missing a key sorts after.
function compareMaps(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareGoStrings);
  for (const k of keys) {
    if (!Object.hasOwn(a, k)) return 1;
    if (!Object.hasOwn(b, k)) return -1;
    const c = compareValues(a[k], b[k]);
    if (c !== 0) return c;
  }
  return 0;
}

/** value as encoding/json writes it: `<`, `>`, `&`, U+2028 and U+2029 escaped; map keys sorted. */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  // As JSON.stringify writes them (a non-finite number, which JSON cannot hold, as null).
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj).sort(compareGoStrings);
  return `{${keys.map((k) => `${goJsonString(k)}:${goJson(obj[k])}`).join(',')}}`;
}

// True when no character needs escaping: no quote, backslash, control character, `<`, `>`, `&`,
// U+2028, U+2029 or surrogate (a loop: cheaper than a regular expression on short keys).
function jsonSafe(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) return false;
    if (c >= 0x2028 && (c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff))) return false;
  }
  return true;
}

/** A string as encoding/json quotes it (HTML-safe, control characters as \u00XX except \n \r \t). */
export function goJsonString(s: string): string {
  if (jsonSafe(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp === 0x22) out += '\\"';
    else if (cp === 0x5c) out += '\\\\';
    else if (cp === 0x0a) out += '\\n';
    else if (cp === 0x0d) out += '\\r';
    else if (cp === 0x09) out += '\\t';
    else if (cp < 0x20 || cp === 0x3c || cp === 0x3e || cp === 0x26 || cp === 0x2028 || cp === 0x2029) {
      out += `\\u${cp.toString(16).padStart(4, '0')}`;
    } else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\ufffd';
    else out += ch;
  }
  return `${out}"`;
}

/** value.ToString: strings quoted as Go's %q, lists and maps in brackets and braces. */
export function valueString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(',')}]`;
  const obj = v as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort(compareGoStrings)
    .map((k) => `${k}=${valueString(obj[k])}`)
    .join(',')}}`;
}

/** A short description of a value for typed-conversion errors (Go prints the Go value). */
export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(describeValue).join(' ')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v).sort(compareGoStrings);
    return `map[${keys.map((k) => `${k}:${describeValue(v[k])}`).join(' ')}]`;
  }
  return String(v);
}
