/**
 * The set of fields a value sets (structured-merge-diff's ToFieldSet): every scalar, every
 * atomic list or map as a whole, every list item (and its fields), and every key of a map that
 * is not a declared struct field. A declared field holding a non-empty struct is owned through
 * its own fields, not as a whole.
 */
import { FieldSet } from '../field-set.js';
import type { PathElement } from '../path-element.js';
import type { Atom } from '../typed-schema.js';
import { isMap } from '../value.js';
import { fieldType, formOf, keyOf, listItemElement } from './atoms.js';

/** The field set of a value already validated against atom. */
export function toFieldSet(value: unknown, atom: Atom): FieldSet {
  const set = new FieldSet();
  walk(value, atom, [], set);
  return set;
}

function walk(v: unknown, atom: Atom, path: PathElement[], set: FieldSet): void {
  const form = formOf(atom, v);
  if (form === undefined) return;
  if (form.kind === 'scalar') {
    set.insert(path);
    return;
  }
  if (form.kind === 'list') {
    const t = form.list;
    if (t.relationship === 'atomic') {
      set.insert(path);
      return;
    }
    if (!Array.isArray(v)) return;
    for (let i = 0; i < v.length; i++) {
      const child = [...path, listItemElement(t, i, v[i])];
      walk(v[i], t.elementType.atom, child, set);
      set.insert(child);
    }
    return;
  }
  const t = form.map;
  if (t.relationship === 'atomic') {
    set.insert(path);
    return;
  }
  if (!isMap(v)) return;
  for (const [key, child] of Object.entries(v)) {
    const type = fieldType(t, key);
    if (type === undefined) continue;
    const childPath = [...path, keyOf(key)];
    walk(child, type, childPath, set);
    if (!t.fields.has(key)) set.insert(childPath);
  }
}
