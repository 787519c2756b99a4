/**
 * The new, empty object of a kind as upstream's field manager sees it on create (the Go zero
 * value of the type, converted to JSON): `metadata: {creationTimestamp: null}`, and every
 * struct held by value (`spec`, `status`, a pod `template` and its `spec`...) present as a
 * map, while pointers and omitempty fields are absent and a few required lists are null.
 *
 * Only presence matters here: a granular map or list the zero value already has is not owned
 * as a whole by the creator (no `.` entry), one it lacks is. The OpenAPI schema does not say
 * which fields Go holds by value: a built-in kind's zero comes from its Go type (the caller's
 * goZero, from the Protobuf messages' JSON shapes); without one (custom resources) this follows
 * the built-in types' convention by name.
 */
import type { Atom } from './typed-schema.js';

/** Struct fields built-in types hold by value (never omitted from their JSON). */
const BY_VALUE = new Set(['metadata', 'spec', 'status', 'template', 'strategy', 'updateStrategy', 'jobTemplate', 'loadBalancer']);

/** List fields built-in types marshal as null when empty (no omitempty): a pod's containers. */
const NULL_WHEN_EMPTY = new Set(['containers']);

// One zero object per type and kind: every write of a new object starts from it.
const ZEROS = new WeakMap<Atom, Map<string, Readonly<Record<string, unknown>>>>();

/** The zero object of a kind of the given type (goZero: its Go zero value, when known), shared and frozen: never to be modified. */
export function zeroObject(apiVersion: string, kind: string, atom: Atom, goZero?: () => Record<string, unknown>): Readonly<Record<string, unknown>> {
  let byKind = ZEROS.get(atom);
  if (byKind === undefined) ZEROS.set(atom, (byKind = new Map()));
  const key = `${apiVersion}\n${kind}`;
  let zero = byKind.get(key);
  if (zero === undefined) {
    zero = deepFreeze({ ...(goZero ? goZero() : zeroStruct(atom, 0)), apiVersion, kind });
    byKind.set(key, zero);
  }
  return zero;
}

function deepFreeze<T extends Record<string, unknown>>(obj: T): T {
  for (const v of Object.values(obj)) if (typeof v === 'object' && v !== null) deepFreeze(v as Record<string, unknown>);
  return Object.freeze(obj);
}

function zeroStruct(atom: Atom, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const map = atom.map;
  if (map === undefined || depth > 6) return out;
  for (const [name, field] of map.fields) {
    if (name === 'metadata' && field.type.atom.map?.fields.has('creationTimestamp')) {
      out.metadata = { creationTimestamp: null };
    } else if (BY_VALUE.has(name) && isStruct(field.type.atom)) {
      out[name] = zeroStruct(field.type.atom, depth + 1);
    } else if (NULL_WHEN_EMPTY.has(name) && field.type.atom.list !== undefined) {
      out[name] = null;
    }
  }
  return out;
}

function isStruct(atom: Atom): boolean {
  return atom.map !== undefined && atom.map.fields.size > 0;
}
