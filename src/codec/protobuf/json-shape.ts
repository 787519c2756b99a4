/**
 * Walks a protobufjs message and produces the JSON object Go's encoding/json would write for the
 * same Go struct, and the reverse. A field's JSON key is its `json_name` option, else its name
 * (the .proto files are loaded with keepCase). Which fields JSON omits follows each field's
 * `(json_shape)` option (see proto/README.md), because Go's Protobuf encoder writes every
 * non-pointer field, zero or not; messages with a JSON form of their own are json-specials.ts.
 *
 * A plan per message type is compiled once, so the hot path is a loop over precomputed
 * closures with no per-field type dispatch.
 */
import type protobuf from 'protobufjs';
import { protobufjs } from './protobufjs.js';
import { ProtobufEncodeError } from './errors.js';
import { type NestedConverters, SPECIAL_MESSAGES } from './json-specials.js';
import { base64ToBytes, bytesToBase64, int64ToNumber } from './wire-values.js';
import { compileFromJson, compileToJson, type FieldPlan, type Shape } from './json-shape-compile.js';

type Msg = Record<string, unknown>;
const SHAPES = new Set<string>(['pointer', 'always', 'nullable', 'inline']);

interface TypePlan {
  type: protobuf.Type;
  fields: FieldPlan[];
  /** The compiled conversions (json-shape-compile.ts), made on first use: by then every field plan exists. */
  toJson?: (m: Msg, out?: Msg) => Msg;
  fromJson?: (json: unknown) => Msg;
  /** The fields a fill may touch (written when absent, or holding messages), picked on first fill. */
  fillable?: FieldPlan[];
}

const INT64_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const NUMBER_TYPES = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32', 'double', 'float', ...INT64_TYPES]);

const plans = new WeakMap<protobuf.Type, TypePlan>();

function planFor(type: protobuf.Type): TypePlan {
  let plan = plans.get(type);
  if (plan) return plan;
  // Registered before its fields are compiled, so recursive message types terminate.
  plan = { type, fields: [] };
  plans.set(type, plan);
  for (const field of type.fieldsArray) plan.fields.push(compileField(field.resolve()));
  return plan;
}

function compileField(field: protobuf.Field): FieldPlan {
  const option = field.options?.['(json_shape)'];
  if (option !== undefined && !SHAPES.has(option)) throw new Error(`${field.fullName}: unknown (json_shape) ${JSON.stringify(option)}`);
  const shape = (option ?? 'omitempty') as Shape;
  const jsonName = field.options?.json_name;
  const names = { name: field.name, key: typeof jsonName === 'string' ? jsonName : field.name, shape };
  const container = field.map ? 'map' : field.repeated ? 'repeated' : 'single';
  const resolved = field.resolvedType;
  if (resolved instanceof protobufjs().Enum) throw new Error(`${field.fullName}: enums are not used by Kubernetes messages`);
  if (resolved instanceof protobufjs().Type) {
    const special = SPECIAL_MESSAGES[resolved.fullName]?.(nestedConverters(resolved));
    if (special) {
      return {
        ...names,
        container,
        isMessage: true,
        identity: false,
        toJson: (v) => special.toJson(v as Msg),
        fromJson: special.fromJson,
        zeroJson: () => special.toJson({}),
        isZero: () => false,
      };
    }
    const sub = messageConverters(resolved);
    return {
      ...names,
      container,
      isMessage: true,
      identity: false,
      ...sub,
      zeroJson: () => sub.toJson({}),
      isZero: () => false,
      fill: messageFiller(resolved),
    };
  }
  return { ...names, container, isMessage: false, ...scalarConverters(field.type) };
}

/** JSON conversions of a whole message type; its plan is compiled on first use, so recursive types terminate. */
function messageConverters(type: protobuf.Type): { toJson: (v: unknown) => Msg; fromJson: (v: unknown) => Msg } {
  let sub: TypePlan | undefined;
  const subPlan = (): TypePlan => (sub ??= planFor(type));
  return { toJson: (v) => messageToJson(subPlan(), v as Msg), fromJson: (v) => jsonToMessage(subPlan(), v) };
}

/** Fills JSON of a message type; its plan is compiled on first use, so recursive types terminate. */
function messageFiller(type: protobuf.Type): (v: Msg) => void {
  let sub: TypePlan | undefined;
  return (v) => fillMessage((sub ??= planFor(type)), v);
}

/** For special messages that nest ordinary ones (a schema inside a schema-or-bool). */
function nestedConverters(type: protobuf.Type): NestedConverters {
  const byField = new Map<string, ReturnType<typeof messageConverters>>();
  return (field) => {
    let converters = byField.get(field);
    if (converters === undefined) {
      const nested = type.fields[field]?.resolve().resolvedType;
      if (!(nested instanceof protobufjs().Type)) throw new Error(`${type.fullName}.${field} is not a message field`);
      converters = messageConverters(nested);
      byField.set(field, converters);
    }
    return converters;
  };
}

function scalarConverters(type: string): Pick<FieldPlan, 'identity' | 'toJson' | 'fromJson' | 'zeroJson' | 'isZero'> {
  if (type === 'string') {
    return { identity: true, toJson: (v) => v, fromJson: expect('string'), zeroJson: () => '', isZero: (v) => v === '' || v === undefined };
  }
  if (type === 'bool') {
    return { identity: true, toJson: (v) => v, fromJson: expect('boolean'), zeroJson: () => false, isZero: (v) => !v };
  }
  if (type === 'bytes') {
    return {
      identity: false,
      toJson: (v) => bytesToBase64(v as Uint8Array),
      fromJson: base64ToBytes,
      zeroJson: () => '',
      isZero: (v) => v === undefined || (v as Uint8Array).length === 0,
    };
  }
  if (NUMBER_TYPES.has(type)) {
    const int64 = INT64_TYPES.has(type);
    const toJson = int64 ? int64ToNumber : (v: unknown) => v;
    return { identity: !int64, toJson, fromJson: expect('number'), zeroJson: () => 0, isZero: (v) => v === undefined || toJson(v) === 0 };
  }
  throw new Error(`unsupported Protobuf scalar type ${type}`);
}

function expect(jsType: 'string' | 'boolean' | 'number'): (v: unknown) => unknown {
  return (v) => {
    if (typeof v !== jsType || (jsType === 'number' && !Number.isFinite(v))) {
      throw new ProtobufEncodeError(`expected a ${jsType}, got ${JSON.stringify(v)}`);
    }
    return v;
  };
}

/** The JSON object for a decoded message; fields appear in .proto (= Go struct) order. */
function messageToJson(plan: TypePlan, m: Msg, out?: Msg): Msg {
  plan.toJson ??= compileToJson(plan.fields);
  return plan.toJson(m, out);
}

/**
 * Adds to a JSON object, in place, the fields Go's encoder writes although they are absent: a
 * value struct as its zero JSON (`{}`, a zero Time as null, recursively with its own such
 * fields), a field without omitempty as its zero value (nil slices and maps as null), and the
 * same inside every present struct, list item and map value. Nothing is removed or reordered;
 * added keys go last.
 */
function fillMessage(plan: TypePlan, json: Msg): void {
  // Most fields are omitempty scalars, which a fill never touches: skipping them halves its cost.
  plan.fillable ??= plan.fields.filter((f) => f.fill !== undefined || f.shape === 'inline' || absentJson(f, false) !== undefined);
  for (const f of plan.fillable) {
    // A Go embedded struct: its fields live in this same JSON object.
    if (f.shape === 'inline') {
      f.fill?.(json);
      continue;
    }
    const v = Object.hasOwn(json, f.key) ? json[f.key] : undefined;
    if (v === undefined || v === null) {
      const zero = absentJson(f, v === null);
      if (zero !== undefined) json[f.key] = zero;
      continue;
    }
    const fill = f.fill;
    if (fill === undefined) continue;
    if (f.container === 'single') {
      if (isObject(v)) fill(v);
    } else if (f.container === 'repeated') {
      if (Array.isArray(v)) for (const item of v) if (isObject(item)) fill(item);
    } else if (isObject(v)) {
      for (const k of Object.keys(v)) {
        const item = v[k];
        if (isObject(item)) fill(item);
      }
    }
  }
}

/** What Go writes for a field that is absent (or null): undefined when it writes nothing (or the null stays). */
function absentJson(f: FieldPlan, isNull: boolean): unknown {
  if (f.container !== 'single') {
    if (f.shape === 'always') return f.container === 'map' ? {} : [];
    return f.shape === 'nullable' && !isNull ? null : undefined;
  }
  if (f.shape === 'pointer') return undefined;
  if (f.shape === 'nullable') return isNull ? undefined : null;
  // A value struct is written even with omitempty; a scalar only without it.
  if (f.isMessage || f.shape === 'always') return f.zeroJson();
  return undefined;
}

function isObject(v: unknown): v is Msg {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A plain object protobufjs' encoder accepts; null and absent JSON values are not written. */
function jsonToMessage(plan: TypePlan, json: unknown): Msg {
  plan.fromJson ??= compileFromJson(plan.type.name, plan.fields);
  return plan.fromJson(json);
}

/** Decoded protobufjs message -> the JSON Go would write for it (no apiVersion/kind), written into `out` when given. */
export function protobufMessageToJson(type: protobuf.Type, message: protobuf.Message | Msg, out?: Msg): Msg {
  return messageToJson(planFor(type), message as Msg, out);
}

/** JSON object -> protobufjs-encodable plain object; throws ProtobufEncodeError on ill-typed values. */
export function jsonToProtobufMessage(type: protobuf.Type, json: Msg): Msg {
  return jsonToMessage(planFor(type), json);
}

/**
 * Adds to a JSON object of the message (in place; returned) every field Go's encoder writes
 * although absent, as upstream's apiserver writes an object it decoded into its Go type.
 */
export function withGoZeroFields(type: protobuf.Type, json: Msg): Msg {
  fillMessage(planFor(type), json);
  return json;
}
