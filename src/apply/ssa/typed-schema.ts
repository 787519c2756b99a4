/**
 * The structured-merge-diff schema of a type, converted from its OpenAPI v2 definition as
 * upstream's kube-openapi schemaconv does: structs and maps are maps (granular unless
 * `x-kubernetes-map-type: atomic`), lists are atomic unless `x-kubernetes-list-type` says
 * `set` or `map` (with `x-kubernetes-list-map-keys`), or, without a list type, their patch
 * strategy is `merge` (keyed by the patch merge key, or a set of primitives without one).
 * Free-form values (no schema, RawExtension, preserve-unknown-fields) get the deduced schema:
 * maps granular, lists atomic, scalars untyped.
 */
import type { Definitions, Schema, SchemaLookup } from '../../api/schema/index.js';
import { refName } from '../../api/schema/index.js';

export type ScalarType = 'string' | 'numeric' | 'boolean' | 'untyped';

export interface ListAtom {
  readonly elementType: TypeRef;
  /** `associative`: a set (no keys) or a map keyed by `keys`; `atomic`: replaced as a whole. */
  readonly relationship: 'atomic' | 'associative';
  readonly keys: readonly string[];
}

export interface StructField {
  readonly type: TypeRef;
  /** The field's default, used when a list-map key is absent (ports' protocol: TCP). */
  readonly default?: unknown;
}

export interface MapAtom {
  readonly fields: ReadonlyMap<string, StructField>;
  /** The type of keys that are not fields (a map's values); absent for a closed struct. */
  readonly elementType?: TypeRef;
  readonly relationship: 'separable' | 'atomic';
}

/** One or more forms a value may take (the deduced atom has all three). */
export interface Atom {
  readonly scalar?: ScalarType;
  readonly list?: ListAtom;
  readonly map?: MapAtom;
}

/** A lazily resolved type (named definitions may be recursive). */
export interface TypeRef {
  readonly atom: Atom;
}

const untypedAtom: { scalar: ScalarType; list?: ListAtom; map?: MapAtom } = { scalar: 'untyped' };
const untypedRef: TypeRef = { atom: untypedAtom };
untypedAtom.list = { elementType: untypedRef, relationship: 'atomic', keys: [] };
untypedAtom.map = { fields: new Map(), elementType: untypedRef, relationship: 'atomic' };

const deducedAtom: { scalar: ScalarType; list?: ListAtom; map?: MapAtom } = { scalar: 'untyped' };
const deducedRef: TypeRef = { atom: deducedAtom };
deducedAtom.list = { elementType: untypedRef, relationship: 'atomic', keys: [] };
deducedAtom.map = { fields: new Map(), elementType: deducedRef, relationship: 'separable' };

/** The schema of a value without one: maps granular all the way down, lists atomic. */
export const DEDUCED: TypeRef = deducedRef;

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

/** Converts one set of definitions; named types are converted once and shared. */
export class TypedSchemas {
  private readonly named = new Map<string, TypeRef>();

  constructor(private readonly definitions: Definitions) {}

  /** The type of a named definition (deduced when the name is unknown). */
  ref(name: string): TypeRef {
    let ref = this.named.get(name);
    if (ref !== undefined) return ref;
    const def = Object.hasOwn(this.definitions, name) ? this.definitions[name] : undefined;
    if (def === undefined) return DEDUCED;
    let atom: Atom | undefined;
    const resolve: Resolve = (n) => this.ref(n);
    ref = {
      get atom(): Atom {
        atom ??= name === QUANTITY ? { scalar: 'untyped' } : convert(def, resolve, false);
        return atom;
      },
    };
    this.named.set(name, ref);
    return ref;
  }
}

type Resolve = (name: string) => TypeRef;

function inline(s: Schema, resolve: Resolve, preserveUnknown: boolean): TypeRef {
  if (s.$ref !== undefined) return resolve(refName(s.$ref));
  const atom = convert(s, resolve, preserveUnknown);
  return { atom };
}

function convert(s: Schema, resolve: Resolve, inheritedPreserve: boolean): Atom {
  if (s.$ref !== undefined) return resolve(refName(s.$ref)).atom;
  if (s['x-kubernetes-int-or-string']) return { scalar: 'untyped' };
  const preserve = inheritedPreserve || s['x-kubernetes-preserve-unknown-fields'] === true;
  switch (s.type) {
    case undefined:
      if (s.properties !== undefined) return struct(s, resolve, preserve);
      if (s.items !== undefined) return { list: list(s, resolve, preserve) };
      return DEDUCED.atom;
    case 'object':
      if (s.properties !== undefined) return struct(s, resolve, preserve);
      return { map: openMap(s, resolve, preserve) };
    case 'array':
      return { list: list(s, resolve, preserve) };
    case 'integer':
    case 'number':
      return { scalar: 'numeric' };
    case 'boolean':
      return { scalar: 'boolean' };
    case 'string':
      return { scalar: s.format === undefined || s.format === '' || s.format === 'byte' ? 'string' : 'untyped' };
    default:
      return { scalar: 'untyped' };
  }
}

function mapRelationship(s: Schema): 'separable' | 'atomic' {
  return s['x-kubernetes-map-type'] === 'atomic' ? 'atomic' : 'separable';
}

// VisitKind: declared fields in order; preserve-unknown-fields opens the struct to deduced keys.
function struct(s: Schema, resolve: Resolve, preserve: boolean): Atom {
  const fields = new Map<string, StructField>();
  for (const [name, field] of Object.entries(s.properties ?? {})) {
    fields.set(name, { type: inline(field, resolve, preserve), ...(field.default !== undefined ? { default: field.default } : {}) });
  }
  const elementType = s.additionalProperties !== undefined ? inline(s.additionalProperties, resolve, preserve) : preserve ? DEDUCED : undefined;
  return { map: { fields, ...(elementType ? { elementType } : {}), relationship: mapRelationship(s) } };
}

// VisitMap: `map[string]T`; a bare `type: object` holds arbitrary (deduced) values.
function openMap(s: Schema, resolve: Resolve, preserve: boolean): MapAtom {
  const elementType = s.additionalProperties !== undefined ? inline(s.additionalProperties, resolve, preserve) : DEDUCED;
  return { fields: new Map(), elementType, relationship: mapRelationship(s) };
}

// VisitArray: list-type wins; else a merge patch strategy makes it associative.
function list(s: Schema, resolve: Resolve, preserve: boolean): ListAtom {
  const elementType = s.items !== undefined ? inline(s.items, resolve, preserve) : DEDUCED;
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') return { elementType, relationship: 'associative', keys: [] };
  if (listType === 'map') return { elementType, relationship: 'associative', keys: s['x-kubernetes-list-map-keys'] ?? [] };
  if (listType === undefined) {
    const strategy = s['x-kubernetes-patch-strategy'];
    if (strategy === 'merge' || strategy === 'merge,retainKeys') {
      const key = s['x-kubernetes-patch-merge-key'];
      return { elementType, relationship: 'associative', keys: key ? [key] : [] };
    }
  }
  return { elementType, relationship: 'atomic', keys: [] };
}

const converted = new WeakMap<Definitions, TypedSchemas>();

/** The typed schema of a top-level kind (upstream group name), deduced when the kind has none. */
export function typeOfKind(lookup: SchemaLookup, group: string, version: string, kind: string): TypeRef {
  const name = lookup.nameOfKind(group, version, kind);
  if (name === undefined) return DEDUCED;
  let schemas = converted.get(lookup.definitions);
  if (schemas === undefined) {
    schemas = new TypedSchemas(lookup.definitions);
    converted.set(lookup.definitions, schemas);
  }
  return schemas.ref(name);
}
