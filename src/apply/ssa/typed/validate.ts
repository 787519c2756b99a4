/**
 * Typed validation (structured-merge-diff's validatingObjectWalker, run by AsTyped): every
 * value has a type its schema allows, every key is declared (unless the map takes any key),
 * every associative-list item can be named and no two items share a name.
 */
import type { Due } from '../../../machinery/pace.js';
import { atOnce, type Steps, stepped, type Work } from '../../work.js';
import { type PathElement, pathElementString } from '../path-element.js';
import type { Atom, ListAtom, MapAtom, ScalarType } from '../typed-schema.js';
import { describeValue, isMap } from '../value.js';
import { fieldType, formOf, keyOf, ListItemError, listItemElement, TypedError } from './atoms.js';

/**
 * The errors in walk order: the rest of a loop deferred to a later piece (../../work.ts) reports
 * into a list of its own, placed where the loop stopped.
 */
type Errors = (TypedError | Errors)[];

/** The typed errors of value against atom, in walk order (empty when it conforms). */
export function validateTyped(value: unknown, atom: Atom): TypedError[] {
  return flatten(atOnce((w) => start(value, atom, w)));
}

/** validateTyped in pieces, pausing between them when due (machinery/pace.ts). */
export function validateTypedSteps(value: unknown, atom: Atom, due: Due): Steps<TypedError[]> {
  return stepped((w) => start(value, atom, w), due, flattenAll);
}

function flattenAll(errs: Errors): TypedError[] {
  return flatten(errs);
}

function start(value: unknown, atom: Atom, w: Work): Errors {
  const errs: Errors = [];
  walk(value, atom, [], errs, w);
  return errs;
}

function flatten(errs: Errors, out?: TypedError[]): TypedError[] {
  // Errors are rare and a walk that did not defer has no nested lists: its list is the answer.
  if (out === undefined && !errs.some(Array.isArray)) return errs as TypedError[];
  out ??= [];
  for (const e of errs) {
    if (Array.isArray(e)) flatten(e, out);
    else out.push(e);
  }
  return out;
}

// path is the one stack of the walk (each step pushes and pops its element): an error keeps a copy.
function walk(v: unknown, atom: Atom, path: PathElement[], errs: Errors, w: Work): void {
  const form = formOf(atom, v);
  if (form === 'scalar') scalar(v, atom.scalar as ScalarType, path, errs);
  else if (form === 'list') list(v, atom.list as ListAtom, path, errs, w);
  else if (form === 'map') map(v, atom.map as MapAtom, path, errs, w);
}

function scalar(v: unknown, t: ScalarType, path: PathElement[], errs: Errors): void {
  if (v === null || v === undefined) return;
  switch (t) {
    case 'numeric':
      if (typeof v !== 'number') errs.push(new TypedError([...path], `expected numeric (int or float), got ${goTypeName(v)}`));
      return;
    case 'string':
      if (typeof v !== 'string') errs.push(new TypedError([...path], `expected string, got &value.valueUnstructured{Value:${goSharp(v)}}`));
      return;
    case 'boolean':
      if (typeof v !== 'boolean') errs.push(new TypedError([...path], `expected boolean, got &{${describeValue(v)}}`));
      return;
    default:
      if (typeof v === 'object') errs.push(new TypedError([...path], `expected any scalar, got &{${describeValue(v)}}`));
  }
}

function list(v: unknown, t: ListAtom, path: PathElement[], errs: Errors, w: Work): void {
  if (v === null || v === undefined) return;
  if (!Array.isArray(v)) {
    errs.push(new TypedError([...path], `expected list, got &{${describeValue(v)}}`));
    return;
  }
  items(v, t, t.relationship === 'associative' ? new Set<string>() : undefined, 0, path, errs, w);
}

// The items of a list from index `from` on (a deferred rest starts past 0).
function items(v: unknown[], t: ListAtom, seen: Set<string> | undefined, from: number, path: PathElement[], errs: Errors, w: Work): void {
  for (let i = from; i < v.length; i++) {
    if (w.spend()) {
      w.later(items, v, t, seen, i, [...path], restOf(errs), w);
      return;
    }
    let pe: PathElement;
    try {
      pe = listItemElement(t, i, v[i]);
    } catch (e) {
      if (!(e instanceof ListItemError)) throw e;
      // The item cannot be named, so nothing below it (nor after it) can be reported.
      errs.push(new TypedError([...path], `element ${i}: ${e.message}`));
      return;
    }
    if (seen !== undefined) {
      if (seen.has(pe.id)) errs.push(new TypedError([...path], `duplicate entries for key ${pathElementString(pe)}`));
      seen.add(pe.id);
    }
    path.push(pe);
    walk(v[i], t.elementType.atom, path, errs, w);
    path.pop();
  }
}

function map(v: unknown, t: MapAtom, path: PathElement[], errs: Errors, w: Work): void {
  if (v === null || v === undefined) return;
  if (!isMap(v)) {
    errs.push(new TypedError([...path], `expected map, got &{${describeValue(v)}}`));
    return;
  }
  entries(v, w.keys(v), t, 0, path, errs, w);
}

function entries(v: Record<string, unknown>, keys: string[], t: MapAtom, from: number, path: PathElement[], errs: Errors, w: Work): void {
  for (let i = from; i < keys.length; i++) {
    if (w.spend()) {
      w.later(entries, v, keys, t, i, [...path], restOf(errs), w);
      return;
    }
    const key = keys[i];
    const type = fieldType(t, key);
    path.push(keyOf(key));
    if (type === undefined) {
      // Upstream stops at the first undeclared key of a map.
      errs.push(new TypedError([...path], 'field not declared in schema'));
      path.pop();
      return;
    }
    walk(v[key], type, path, errs, w);
    path.pop();
  }
}

// The list a deferred rest reports into, placed where its loop stopped.
function restOf(errs: Errors): Errors {
  const rest: Errors = [];
  errs.push(rest);
  return rest;
}

function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

// Go's %#v of an unstructured value.
function goSharp(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharp).join(', ')}}`;
  if (isMap(v))
    return `map[string]interface {}{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${goSharp(x)}`)
      .join(', ')}}`;
  return String(v);
}
