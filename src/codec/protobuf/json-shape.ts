/**
 * Walks a protobufjs message and produces the JSON object Go's encoding/json would write for the
 * same Go struct, and the reverse. Field names are the JSON names (the .proto files are loaded
 * with keepCase). Which fields JSON omits follows each field's `(json_shape)` option (see
 * proto/README.md), because Go's Protobuf encoder writes every non-pointer field, zero or not.
 *
 * A plan per message type is compiled once, so the hot path is a loop over precomputed
 * closures with no per-field type dispatch.
 */
import protobuf from 'protobufjs';
import { ProtobufEncodeError } from './errors.js';
import {
  base64ToBytes,
  bytesToBase64,
  fieldsV1FromJson,
  fieldsV1ToJson,
  int64ToNumber,
  intOrStringFromJson,
  intOrStringToJson,
  microTimeToJson,
  quantityFromJson,
  quantityToJson,
  timeFromJson,
  timeToJson,
} from './wire-values.js';

type Msg = Record<string, unknown>;
type Shape = 'omitempty' | 'pointer' | 'always';

interface FieldPlan {
  name: string;
  shape: Shape;
  container: 'single' | 'repeated' | 'map';
  /** Message-typed (incl. Time, Quantity...): JSON is always shown for a Go value struct. */
  isMessage: boolean;
  /** Converts one element (the field itself, an array item or a map value) to JSON. */
  toJson: (v: unknown) => unknown;
  /** Converts one JSON element to what protobufjs' encoder accepts. */
  fromJson: (v: unknown) => unknown;
  /** JSON for a non-pointer field that is absent (or zero): '' / 0 / false / {} / null. */
  zeroJson: () => unknown;
  isZero: (v: unknown) => boolean;
}

interface TypePlan {
  type: protobuf.Type;
  fields: FieldPlan[];
}

const META = '.k8s.io.apimachinery.pkg.apis.meta.v1';

/** Messages whose JSON form is a scalar or opaque value rather than an object of fields. */
const SPECIAL: Record<string, { toJson: (m: Msg) => unknown; fromJson: (v: unknown) => Msg }> = {
  [`${META}.Time`]: { toJson: timeToJson, fromJson: timeFromJson },
  [`${META}.MicroTime`]: { toJson: microTimeToJson, fromJson: timeFromJson },
  [`${META}.FieldsV1`]: { toJson: fieldsV1ToJson, fromJson: fieldsV1FromJson },
  '.k8s.io.apimachinery.pkg.api.resource.Quantity': { toJson: quantityToJson, fromJson: quantityFromJson },
  '.k8s.io.apimachinery.pkg.util.intstr.IntOrString': { toJson: intOrStringToJson, fromJson: intOrStringFromJson },
};

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
  const shape: Shape = option === 'pointer' || option === 'always' ? option : 'omitempty';
  const container = field.map ? 'map' : field.repeated ? 'repeated' : 'single';
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum) throw new Error(`${field.fullName}: enums are not used by Kubernetes messages`);
  if (resolved instanceof protobuf.Type) {
    const special = SPECIAL[resolved.fullName];
    if (special) {
      return {
        name: field.name,
        shape,
        container,
        isMessage: true,
        toJson: (v) => special.toJson(v as Msg),
        fromJson: special.fromJson,
        zeroJson: () => special.toJson({}),
        isZero: () => false,
      };
    }
    // Sub-plans are looked up lazily: compiling them here could recurse forever.
    let sub: TypePlan | undefined;
    const subPlan = (): TypePlan => (sub ??= planFor(resolved));
    return {
      name: field.name,
      shape,
      container,
      isMessage: true,
      toJson: (v) => messageToJson(subPlan(), v as Msg),
      fromJson: (v) => jsonToMessage(subPlan(), v),
      zeroJson: () => messageToJson(subPlan(), {}),
      isZero: () => false,
    };
  }
  return { name: field.name, shape, container, isMessage: false, ...scalarConverters(field.type) };
}

function scalarConverters(type: string): Pick<FieldPlan, 'toJson' | 'fromJson' | 'zeroJson' | 'isZero'> {
  if (type === 'string') {
    return { toJson: (v) => v, fromJson: expect('string'), zeroJson: () => '', isZero: (v) => v === '' || v === undefined };
  }
  if (type === 'bool') {
    return { toJson: (v) => v, fromJson: expect('boolean'), zeroJson: () => false, isZero: (v) => !v };
  }
  if (type === 'bytes') {
    return {
      toJson: (v) => bytesToBase64(v as Uint8Array),
      fromJson: base64ToBytes,
      zeroJson: () => '',
      isZero: (v) => v === undefined || (v as Uint8Array).length === 0,
    };
  }
  if (NUMBER_TYPES.has(type)) {
    const toJson = INT64_TYPES.has(type) ? int64ToNumber : (v: unknown) => v;
    return { toJson, fromJson: expect('number'), zeroJson: () => 0, isZero: (v) => v === undefined || toJson(v) === 0 };
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
function messageToJson(plan: TypePlan, m: Msg): Msg {
  const out: Msg = {};
  for (const f of plan.fields) {
    const present = Object.hasOwn(m, f.name);
    const v = m[f.name];
    if (f.container === 'map') {
      const keys = v ? Object.keys(v as Msg) : [];
      if (keys.length === 0) {
        if (f.shape === 'always') out[f.name] = {};
        continue;
      }
      const obj: Msg = {};
      for (const k of keys) obj[k] = f.toJson((v as Msg)[k]);
      out[f.name] = obj;
    } else if (f.container === 'repeated') {
      const arr = v as unknown[] | undefined;
      if (!arr || arr.length === 0) {
        if (f.shape === 'always') out[f.name] = [];
        continue;
      }
      const list = new Array(arr.length);
      for (let i = 0; i < arr.length; i++) list[i] = f.toJson(arr[i]);
      out[f.name] = list;
    } else if (f.shape === 'pointer') {
      if (present && v !== null && v !== undefined) out[f.name] = f.toJson(v);
    } else if (f.isMessage) {
      // A Go value struct is always written, even with omitempty (a zero Time as null).
      out[f.name] = present && v ? f.toJson(v) : f.zeroJson();
    } else if (!present || f.isZero(v)) {
      if (f.shape === 'always') out[f.name] = f.zeroJson();
    } else {
      out[f.name] = f.toJson(v);
    }
  }
  return out;
}

/** One map value or list item; Go decodes a JSON null there as the zero value. */
function elementFromJson(f: FieldPlan, v: unknown): unknown {
  if (v !== null) return f.fromJson(v);
  return f.isMessage ? {} : f.fromJson(f.zeroJson());
}

/** A plain object protobufjs' encoder accepts; null and absent JSON values are not written. */
function jsonToMessage(plan: TypePlan, json: unknown): Msg {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ProtobufEncodeError(`expected an object for ${plan.type.name}, got ${Array.isArray(json) ? 'an array' : JSON.stringify(json)}`);
  }
  const src = json as Msg;
  const out: Msg = {};
  for (const f of plan.fields) {
    const v = src[f.name];
    if (v === undefined || v === null) continue;
    try {
      if (f.container === 'map') {
        if (typeof v !== 'object' || Array.isArray(v)) throw new ProtobufEncodeError(`expected an object, got ${JSON.stringify(v)}`);
        const obj: Msg = {};
        for (const k of Object.keys(v as Msg)) obj[k] = elementFromJson(f, (v as Msg)[k]);
        out[f.name] = obj;
      } else if (f.container === 'repeated') {
        if (!Array.isArray(v)) throw new ProtobufEncodeError(`expected an array, got ${JSON.stringify(v)}`);
        const list = new Array(v.length);
        for (let i = 0; i < v.length; i++) list[i] = elementFromJson(f, v[i]);
        out[f.name] = list;
      } else {
        out[f.name] = f.fromJson(v);
      }
    } catch (err) {
      if (err instanceof ProtobufEncodeError) throw new ProtobufEncodeError(`${f.name}: ${err.message}`);
      throw err;
    }
  }
  return out;
}

/** Decoded protobufjs message -> the JSON Go would write for it (no apiVersion/kind). */
export function protobufMessageToJson(type: protobuf.Type, message: protobuf.Message | Msg): Msg {
  return messageToJson(planFor(type), message as Msg);
}

/** JSON object -> protobufjs-encodable plain object; throws ProtobufEncodeError on ill-typed values. */
export function jsonToProtobufMessage(type: protobuf.Type, json: Msg): Msg {
  return jsonToMessage(planFor(type), json);
}
