/**
 * encoding/json's Marshal of a decoded JSON value (map[string]interface{} and friends): object
 * keys sorted, compact, and `<`, `>`, `&`, U+2028 and U+2029 escaped as Go's HTML-safe encoder
 * escapes them. Upstream shows patched objects this way in its errors (the JSON and merge patch
 * libraries marshal maps).
 */
export function goMarshal(v: unknown): string {
  return goStructMarshal(sortedKeys(v));
}

/** encoding/json's Marshal of a Go struct value built with its keys in field order (kept as given). */
export function goStructMarshal(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (v === null || typeof v !== 'object') return v;
  const out = new Map<string, unknown>();
  for (const k of Object.keys(v).sort()) out.set(k, sortedKeys((v as Record<string, unknown>)[k]));
  return Object.fromEntries(out);
}
