/**
 * Removal of a set of fields from a value (structured-merge-diff's TypedValue.RemoveItems):
 * a member path goes with everything below it; a prefix is walked into. A list or map left
 * with nothing is dropped, as upstream's nil becomes an omitted field of the typed object.
 */
import type { FieldSet } from '../field-set.js';
import type { Atom, ListAtom, MapAtom } from '../typed-schema.js';
import { isMap } from '../value.js';
import { fieldType, formOf, keyOf, listItemElement } from './atoms.js';
import { setOwn } from '../../../machinery/own-property.js';

/** value without the paths of toRemove (undefined when nothing is left of a list or map). */
export function removeItems(value: unknown, toRemove: FieldSet, atom: Atom): unknown {
  const form = formOf(atom, value);
  if (form === undefined || form === 'scalar') return value;
  if (form === 'list') {
    const t = atom.list as ListAtom;
    if (!Array.isArray(value) || value.length === 0 || t.relationship === 'atomic') return undefined;
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const pe = listItemElement(t, i, value[i]);
      if (toRemove.members.has(pe.id)) continue;
      const below = toRemove.children.get(pe.id)?.set;
      const item = below !== undefined && !below.empty() ? removeItems(value[i], below, t.elementType.atom) : value[i];
      if (item !== undefined) out.push(item);
    }
    return out.length > 0 ? out : undefined;
  }
  const t = atom.map as MapAtom;
  if (!isMap(value) || t.relationship === 'atomic') return undefined;
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [key, child] of Object.entries(value)) {
    const pe = keyOf(key);
    if (toRemove.members.has(pe.id)) continue;
    const below = toRemove.children.get(pe.id)?.set;
    const type = fieldType(t, key);
    const kept = below !== undefined && !below.empty() && type !== undefined ? removeItems(child, below, type) : child;
    if (kept === undefined) continue;
    setOwn(out, key, kept);
    any = true;
  }
  return any ? out : undefined;
}
