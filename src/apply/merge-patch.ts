/** JSON merge patch (RFC 7386): objects merge recursively, null deletes, anything else replaces. */
import { isPlainObject } from '../machinery/object.js';
import { ownValue, setOwn } from '../machinery/own-property.js';

/** The result of merging patch into target; neither input is modified. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    // Own keys only: `constructor` is absent until given, and `__proto__` is a key, never the prototype.
    else setOwn(out, k, mergePatch(ownValue(out, k), v));
  }
  return out;
}
