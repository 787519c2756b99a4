/** JSON merge patch (RFC 7386): objects merge recursively, null deletes, anything else replaces. */
import { isPlainObject } from '../machinery/object.js';
import { ownValue, setOwn } from '../machinery/own-property.js';

/** The result of merging patch into target; neither input is modified. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  // Keys, not entries, and scalars taken as they are: a patch of 100,000 labels makes no pair
  // array and no copy per label.
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) delete out[k];
    // Own keys only: `constructor` is absent until given, and `__proto__` is a key, never the prototype.
    else setOwn(out, k, typeof v === 'object' ? mergePatch(ownValue(out, k), v) : v);
  }
  return out;
}
