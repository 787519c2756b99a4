/**
 * Reads a decoded JSON object as its type, as upstream's typed decoding does: fields the type
 * does not have are collected (for fieldValidation) and dropped, explicit nulls are dropped (Go
 * decodes them to the zero value, which is not written back), and a value of the wrong JSON type
 * is refused with Go's decoding error. Walks the type's schema; pure apart from pruning obj.
 */
import { isPlainObject } from '../machinery/object.js';
import { jsonType } from '../machinery/object-shape.js';
import { type Due, runAtOnce } from '../machinery/pace.js';
import { refName, type Schema, type SchemaLookup } from '../api/schema/schema.js';

/** What a field's Go type is, as upstream's unstructured converter tells them apart. */
type GoTarget = 'map' | 'slice' | 'struct' | 'basic' | 'custom';

/**
 * A value of the wrong JSON type. The message is encoding/json's (UnmarshalTypeError), which
 * upstream returns when it decodes JSON (bodies, merge and JSON patches); converterMessage is the
 * text of its unstructured converter (runtime.DefaultUnstructuredConverter), which a strategic
 * merge patch goes through instead.
 */
export class FieldTypeError extends Error {
  constructor(
    message: string,
    private readonly value: unknown,
    private readonly target: GoTarget,
    private readonly goTypeName: string,
  ) {
    super(message);
  }

  get converterMessage(): string {
    const v = this.value;
    switch (this.target) {
      case 'map':
        return `cannot restore map from ${reflectKind(v)}`;
      case 'slice':
        return `cannot restore slice from ${reflectKind(v)}`;
      case 'struct':
        return `cannot restore struct from: ${reflectKind(v)}`;
      case 'basic':
        return `cannot convert ${reflectType(v)} to ${this.goTypeName}`;
      default:
        // Types with their own JSON decoding (Time, IntOrString, Quantity) are decoded as JSON.
        return this.message;
    }
  }
}

/**
 * Go's reflect.Kind of a value decoded by upstream's util/json (integral numbers become int64).
 * The walk never sees null (Go's zero value), so it is not named.
 */
function reflectKind(v: unknown): string {
  if (Array.isArray(v)) return 'slice';
  if (isPlainObject(v)) return 'map';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** Go's reflect.Type string of such a value. */
function reflectType(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (isPlainObject(v)) return 'map[string]interface {}';
  if (typeof v === 'boolean') return 'bool';
  return reflectKind(v);
}

const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

/**
 * Go's UnmarshalTypeError value: the JSON type, except that a number an integer field cannot
 * hold (a fraction) is named with its text, as encoding/json's literalStore names it.
 */
function jsonKind(v: unknown, s: Schema): string {
  return typeof v === 'number' && s.type === 'integer' ? `number ${v}` : jsonType(v);
}

/** Go's type name of a schema (`int32`, `[]v1.Container`, `map[string]string`, `v1.PodSpec`). */
function goType(s: Schema): string {
  if (s.$ref !== undefined) {
    const parts = refName(s.$ref).split('.');
    return `${parts.at(-2)}.${parts.at(-1)}`;
  }
  switch (s.type) {
    case 'integer':
      return s.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'array':
      return `[]${s.items ? goType(s.items) : 'interface {}'}`;
    case 'object':
      return s.additionalProperties ? `map[string]${goType(s.additionalProperties)}` : 'map[string]interface {}';
    default:
      return s.format === 'byte' ? '[]uint8' : 'string';
  }
}

/** A map of strings met by the walk, whose values are checked after it, in steps. */
interface StringMap {
  map: Record<string, unknown>;
  struct: string;
  path: string;
  values: Schema;
}

interface Walk {
  lookup: SchemaLookup;
  unknown: string[];
  /** In document order. */
  stringMaps: StringMap[];
}

function mismatch(v: unknown, struct: string, path: string, s: Schema, target: GoTarget): never {
  throw new FieldTypeError(`json: cannot unmarshal ${jsonKind(v, s)} into Go struct field ${struct}.${path} of type ${goType(s)}`, v, target, goType(s));
}

/** The converter's view of a plain (non-$ref) schema's Go type. */
function plainTarget(s: Schema): GoTarget {
  if (s.type === 'array' || (s.type === 'string' && s.format === 'byte')) return 'slice';
  return s.type === 'object' ? 'map' : 'basic';
}

/**
 * Checks v against s and prunes it; returns the value to keep (a Quantity number becomes its
 * string, as Quantity's decoder accepts both and always writes a string).
 */
function walk(w: Walk, v: unknown, s: Schema, struct: string, path: string): unknown {
  if (s.$ref !== undefined) {
    const name = refName(s.$ref);
    const def = w.lookup.definition(name);
    if (def === undefined) return v;
    if (name === INT_OR_STRING) {
      if (typeof v !== 'string' && !(typeof v === 'number' && Number.isInteger(v))) mismatch(v, struct, path, s, 'custom');
      return v;
    }
    if (name === QUANTITY) {
      if (typeof v === 'number') return String(v);
      if (typeof v !== 'string') mismatch(v, struct, path, s, 'custom');
      return v;
    }
    if (def.properties === undefined) {
      // Time, FieldsV1, RawExtension, free-form JSON: their own decoders, no fields to check.
      if (def.type === 'string' && typeof v !== 'string') mismatch(v, struct, path, s, 'custom');
      if (def.type === 'object' && !isPlainObject(v)) mismatch(v, struct, path, s, 'custom');
      return v;
    }
    if (!isPlainObject(v)) mismatch(v, struct, path, s, 'struct');
    walkStruct(w, v, def, name.slice(name.lastIndexOf('.') + 1), path);
    return v;
  }
  if (s['x-kubernetes-preserve-unknown-fields']) return v;
  switch (s.type) {
    case 'string':
      if (typeof v !== 'string') mismatch(v, struct, path, s, plainTarget(s));
      return v;
    case 'boolean':
      if (typeof v !== 'boolean') mismatch(v, struct, path, s, plainTarget(s));
      return v;
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) mismatch(v, struct, path, s, plainTarget(s));
      return v;
    case 'number':
      if (typeof v !== 'number') mismatch(v, struct, path, s, plainTarget(s));
      return v;
    case 'array': {
      if (!Array.isArray(v)) mismatch(v, struct, path, s, plainTarget(s));
      const items = s.items;
      if (items) {
        for (let i = 0; i < v.length; i++) {
          if (v[i] !== null) v[i] = walk(w, v[i], items, struct, `${path}[${i}]`);
        }
      }
      return v;
    }
    case 'object': {
      if (!isPlainObject(v)) mismatch(v, struct, path, s, plainTarget(s));
      const values = s.additionalProperties;
      if (values !== undefined && isPlainString(values)) {
        // A map of strings (labels, annotations, data): nothing in it is rewritten, so its
        // values are checked after the walk, in steps (a map may hold 120,000 labels).
        w.stringMaps.push({ map: v, struct, path, values });
      } else if (values) {
        for (const key of Object.keys(v)) {
          if (v[key] !== null) v[key] = walk(w, v[key], values, struct, `${path}[${key}]`);
        }
      }
      return v;
    }
    default:
      return v;
  }
}

/** A string schema walk() checks only for being a string (no $ref, nothing kept unknown). */
function isPlainString(s: Schema): boolean {
  return s.$ref === undefined && s.type === 'string' && !s['x-kubernetes-preserve-unknown-fields'];
}

function walkStruct(w: Walk, obj: Record<string, unknown>, def: Schema, struct: string, path: string): void {
  const props = def.properties ?? {};
  for (const key of Object.keys(obj)) {
    const fieldPath = path === '' ? key : `${path}.${key}`;
    // Own properties only: a key named like an Object.prototype member is as unknown as any other.
    const prop = Object.hasOwn(props, key) ? props[key] : undefined;
    if (prop === undefined) {
      w.unknown.push(fieldPath);
      delete obj[key];
      continue;
    }
    const v = obj[key];
    if (v === null) {
      delete obj[key];
      continue;
    }
    obj[key] = walk(w, v, prop, struct, fieldPath);
  }
}

/**
 * Reads obj (in place) as the named definition: drops unknown fields and nulls, throws
 * FieldTypeError for a value of the wrong type, and returns the unknown fields' paths
 * (`spec.containers[0].foo`) in document order. apiVersion and kind are always known.
 */
export function readTypedFields(obj: Record<string, unknown>, lookup: SchemaLookup, definitionName: string): string[] {
  return runAtOnce((due) => readTypedFieldsSteps(obj, lookup, definitionName, due));
}

/** Values of a string map checked between two looks at the pace. */
const VALUES_PER_STEP = 4096;

/** readTypedFields as stepped work (machinery/pace.ts): the string maps' values are checked in steps. */
export function* readTypedFieldsSteps(obj: Record<string, unknown>, lookup: SchemaLookup, definitionName: string, due: Due): Generator<void, string[], void> {
  const def = lookup.definition(definitionName);
  if (def === undefined) return [];
  const w: Walk = { lookup, unknown: [], stringMaps: [] };
  let wrong: FieldTypeError | undefined;
  try {
    walkStruct(w, obj, def, definitionName.slice(definitionName.lastIndexOf('.') + 1), '');
  } catch (e) {
    if (!(e instanceof FieldTypeError)) throw e;
    wrong = e;
  }
  // The maps the walk met came before any value it refused: a wrong value in one of them is the
  // decoder's first error.
  for (const m of w.stringMaps) {
    if (due()) yield;
    const keys = Object.keys(m.map);
    for (let i = 0; i < keys.length; i++) {
      const e = m.map[keys[i]];
      if (e !== null && typeof e !== 'string') mismatch(e, m.struct, `${m.path}[${keys[i]}]`, m.values, plainTarget(m.values));
      if ((i + 1) % VALUES_PER_STEP === 0 && due()) yield;
    }
  }
  if (wrong !== undefined) throw wrong;
  return w.unknown;
}
