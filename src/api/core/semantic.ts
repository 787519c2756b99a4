/**
 * apimachinery's Semantic.DeepEqual over JSON-shaped values: Go's zero values fold together
 * (absent, null, '', 0, false, [] and {} are all "unset"), so an update that only spells an
 * unset field differently is no change. Also a short diff of two values for messages.
 */
import { isPlainObject } from '../../machinery/object.js';
import { ownValue, setOwn } from '../../machinery/own-property.js';

function withoutZeros(v: unknown): unknown {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return undefined;
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map((x) => withoutZeros(x) ?? null);
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const n = withoutZeros(v[k]);
      if (n !== undefined) setOwn(out, k, n);
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v;
}

/** True when a and b are equal once Go's zero values are folded. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(withoutZeros(a) ?? null) === JSON.stringify(withoutZeros(b) ?? null);
}

function collectDiff(a: unknown, b: unknown, path: string, out: string[]): void {
  if (semanticEqual(a, b)) return;
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) collectDiff(ownValue(a, k), ownValue(b, k), path ? `${path}.${k}` : k, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => {
      collectDiff(x, b[i], `${path}[${i}]`, out);
    });
    return;
  }
  out.push(`- \t${path}: ${JSON.stringify(withoutZeros(a) ?? null)},`, `+ \t${path}: ${JSON.stringify(withoutZeros(b) ?? null)},`);
}

/** A cmp.Diff-like listing of what differs between old and new under a type name. */
export function specDiff(typeName: string, oldValue: unknown, newValue: unknown): string {
  const lines: string[] = [];
  collectDiff(oldValue, newValue, '', lines);
  return [`  ${typeName}{`, ...lines, '  }', ''].join('\n');
}
