/**
 * A value without the map keys its type does not declare, as upstream's typed decoding reads a
 * stored object: a field the type lacks is not there. Values of the wrong type are kept (the
 * typed validation that follows reports them).
 */
import { setOwn } from '../../../machinery/own-property.js';
import type { Atom, ListAtom, MapAtom } from '../typed-schema.js';
import { isMap } from '../value.js';
import { fieldType, formOf } from './atoms.js';

/** value (a copy where anything was dropped) without the keys atom does not declare, at any depth. */
export function pruneUndeclared(value: unknown, atom: Atom): unknown {
  const form = formOf(atom, value);
  if (form === 'list' && Array.isArray(value)) {
    const element = (atom.list as ListAtom).elementType.atom;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const pruned = pruneUndeclared(value[i], element);
      if (pruned === value[i]) continue;
      out ??= [...value];
      out[i] = pruned;
    }
    return out ?? value;
  }
  if (form !== 'map' || !isMap(value)) return value;
  const t = atom.map as MapAtom;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const type = fieldType(t, key);
    if (type === undefined) {
      changed = true;
      continue;
    }
    const pruned = pruneUndeclared(child, type);
    if (pruned !== child) changed = true;
    setOwn(out, key, pruned);
  }
  return changed ? out : value;
}
