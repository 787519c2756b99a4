/**
 * What every typed walk shares (structured-merge-diff's typed/helpers.go): which form of an
 * atom handles a value (deduceAtom + handleAtom), how a list item is named (its key, its set
 * value or its index) and the errors a walk reports with the path where they happened.
 */
import { fieldElement, indexElement, keyElement, type KeyField, type Path, type PathElement, pathString, valueElement } from '../path-element.js';
import type { Atom, ListAtom, MapAtom } from '../typed-schema.js';
import { isMap } from '../value.js';

/** The form a value is walked as: the atom's map, list or scalar. */
export type Form = 'map' | 'list' | 'scalar';

/**
 * deduceAtom then handleAtom: the atom's form matching the value's type, else the first of
 * map, scalar, list the atom has (an absent or null value takes the atom as it is).
 */
export function formOf(atom: Atom, v: unknown): Form | undefined {
  if (v !== undefined && v !== null) {
    if (typeof v === 'object') {
      if (Array.isArray(v)) {
        if (atom.list) return 'list';
      } else if (atom.map) return 'map';
    } else if (atom.scalar) return 'scalar';
  }
  if (atom.map) return 'map';
  if (atom.scalar) return 'scalar';
  if (atom.list) return 'list';
  return undefined;
}

/** The type of a map's key: its field's type, else the map's element type. */
export function fieldType(m: MapAtom, key: string): Atom | undefined {
  return (m.fields.get(key)?.type ?? m.elementType)?.atom;
}

/** A typed-walk error at a path (ValidationError). */
export class TypedError extends Error {
  constructor(
    readonly path: Path,
    readonly detail: string,
  ) {
    super(path.length === 0 ? detail : `${pathString(path)}: ${detail}`);
  }
}

/** ValidationErrors.Error: one error alone, or `errors:` and each one indented on its line. */
export function typedErrorsMessage(errs: readonly TypedError[]): string {
  if (errs.length === 1) return errs[0].message;
  return ['errors:', ...errs.map((e) => `  ${e.message}`)].join('\n');
}

/** Thrown when a list item cannot be named; the walk reports it as `element <i>: <message>`. */
export class ListItemError extends Error {}

/** listItemToPathElement: an associative item's key or set value, an atomic item's index. */
export function listItemElement(list: ListAtom, index: number, item: unknown): PathElement {
  if (list.relationship !== 'associative') return indexElement(index);
  if (list.keys.length > 0) return keyedItemElement(list, item);
  if (item === null || item === undefined) throw new ListItemError("associative list without keys has an element that's an explicit null");
  if (Array.isArray(item)) throw new ListItemError('not supported: associative list with lists as elements');
  if (typeof item === 'object') throw new ListItemError("associative list without keys has an element that's a map type");
  return valueElement(item);
}

// The items of a keyed list are named on every walk (validate, compare, merge...) of every
// request, by key values that repeat across writes: elements are kept by list and key values
// (scalar values only; an absent key field is ABSENT). Bounded: a flood of keys only empties it.
interface KeyNode {
  next?: Map<unknown, KeyNode>;
  pe?: PathElement;
}
const ABSENT = Symbol('absent');
const MAX_KEYED = 50_000;
let keyed = new WeakMap<ListAtom, KeyNode>();
let keyedCount = 0;

function keyedItemElement(list: ListAtom, item: unknown): PathElement {
  if (item === null || item === undefined) throw new ListItemError('associative list with keys may not have a null element');
  if (!isMap(item)) throw new ListItemError('associative list with keys may not have non-map elements');
  if (keyedCount >= MAX_KEYED) {
    keyed = new WeakMap();
    keyedCount = 0;
  }
  let node = keyed.get(list);
  if (node === undefined) keyed.set(list, (node = {}));
  for (const name of list.keys) {
    const value = Object.hasOwn(item, name) ? item[name] : ABSENT;
    if (typeof value === 'object' && value !== null) return computeKeyedElement(list, item);
    node.next ??= new Map();
    let child = node.next.get(value);
    if (child === undefined) {
      node.next.set(value, (child = {}));
      keyedCount++;
    }
    node = child;
  }
  node.pe ??= computeKeyedElement(list, item);
  return node.pe;
}

function computeKeyedElement(list: ListAtom, item: Record<string, unknown>): PathElement {
  const fields: KeyField[] = [];
  for (const name of list.keys) {
    if (Object.hasOwn(item, name)) {
      fields.push([name, item[name]]);
      continue;
    }
    // A key the item omits takes the key field's default (a container port's protocol: TCP).
    const element = list.elementType.atom.map;
    if (element === undefined) throw new ListItemError(`couldn't find default value for ${name}: associative list may not have non-map types`);
    const def = element.fields.get(name)?.default;
    if (def === undefined || def === null) {
      throw new ListItemError(`associative list with keys has an element that omits key field "${name}" (and doesn't have default value)`);
    }
    fields.push([name, def]);
  }
  return keyElement(fields);
}

/** The element of a map key. */
export const keyOf = fieldElement;
