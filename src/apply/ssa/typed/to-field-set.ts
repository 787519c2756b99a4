/**
 * The set of fields a value sets (structured-merge-diff's ToFieldSet): every scalar, every
 * atomic list or map as a whole, every list item (and its fields), and every key of a map that
 * is not a declared struct field. A declared field holding a non-empty struct is owned through
 * its own fields, not as a whole.
 */
import { FieldSet } from '../field-set.js';
import type { PathElement } from '../path-element.js';
import type { Atom, ListAtom, MapAtom } from '../typed-schema.js';
import { isMap } from '../value.js';
import { fieldType, formOf, keyOf, listItemElement } from './atoms.js';

/** The field set of a value already validated against atom. */
export function toFieldSet(value: unknown, atom: Atom): FieldSet {
  const set = new FieldSet();
  walk(value, atom, [], set);
  return set;
}

// path is the one stack of the walk: each step pushes and pops its element.
function walk(v: unknown, atom: Atom, path: PathElement[], set: FieldSet): void {
  const form = formOf(atom, v);
  if (form === undefined) return;
  if (form === 'scalar') {
    set.insert(path);
    return;
  }
  if (form === 'list') {
    const t = atom.list as ListAtom;
    if (t.relationship === 'atomic') {
      set.insert(path);
      return;
    }
    if (!Array.isArray(v)) return;
    for (let i = 0; i < v.length; i++) {
      path.push(listItemElement(t, i, v[i]));
      walk(v[i], t.elementType.atom, path, set);
      set.insert(path);
      path.pop();
    }
    return;
  }
  const t = atom.map as MapAtom;
  if (t.relationship === 'atomic') {
    set.insert(path);
    return;
  }
  if (!isMap(v)) return;
  for (const key of Object.keys(v)) {
    const type = fieldType(t, key);
    if (type === undefined) continue;
    path.push(keyOf(key));
    walk(v[key], type, path, set);
    if (!t.fields.has(key)) set.insert(path);
    path.pop();
  }
}
