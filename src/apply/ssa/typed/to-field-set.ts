/**
 * The set of fields a value sets (structured-merge-diff's ToFieldSet): every scalar, every
 * atomic list or map as a whole, every list item (and its fields), and every key of a map that
 * is not a declared struct field. A declared field holding a non-empty struct is owned through
 * its own fields, not as a whole.
 */
import type { Due } from '../../../machinery/pace.js';
import { atOnce, type Steps, stepped, type Work } from '../../work.js';
import { FieldSet } from '../field-set.js';
import type { PathElement } from '../path-element.js';
import type { Atom, ListAtom, MapAtom } from '../typed-schema.js';
import { isMap } from '../value.js';
import { fieldType, formOf, keyOf, listItemElement } from './atoms.js';

/** The field set of a value already validated against atom. */
export function toFieldSet(value: unknown, atom: Atom): FieldSet {
  return atOnce((w) => start(value, atom, w));
}

/** toFieldSet in pieces (../../work.ts), pausing between them when due. */
export function toFieldSetSteps(value: unknown, atom: Atom, due: Due): Steps<FieldSet> {
  return stepped((w) => start(value, atom, w), due);
}

function start(value: unknown, atom: Atom, w: Work): FieldSet {
  const set = new FieldSet();
  walk(value, atom, [], set, w);
  return set;
}

// path is the one stack of the walk: each step pushes and pops its element (a deferred rest
// walks on a copy).
function walk(v: unknown, atom: Atom, path: PathElement[], set: FieldSet, w: Work): void {
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
    if (Array.isArray(v)) items(v, t, 0, path, set, w);
    return;
  }
  const t = atom.map as MapAtom;
  if (t.relationship === 'atomic') {
    set.insert(path);
    return;
  }
  if (isMap(v)) entries(v, w.keys(v), t, 0, path, set, w);
}

function items(v: unknown[], t: ListAtom, from: number, path: PathElement[], set: FieldSet, w: Work): void {
  for (let i = from; i < v.length; i++) {
    if (w.spend()) {
      w.later(items, v, t, i, [...path], set, w);
      return;
    }
    path.push(listItemElement(t, i, v[i]));
    walk(v[i], t.elementType.atom, path, set, w);
    set.insert(path);
    path.pop();
  }
}

function entries(v: Record<string, unknown>, keys: string[], t: MapAtom, from: number, path: PathElement[], set: FieldSet, w: Work): void {
  for (let i = from; i < keys.length; i++) {
    if (w.spend()) {
      w.later(entries, v, keys, t, i, [...path], set, w);
      return;
    }
    const key = keys[i];
    const type = fieldType(t, key);
    if (type === undefined) continue;
    path.push(keyOf(key));
    walk(v[key], type, path, set, w);
    if (!t.fields.has(key)) set.insert(path);
    path.pop();
  }
}
