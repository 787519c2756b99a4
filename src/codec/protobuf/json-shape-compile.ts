/**
 * The per-message conversions of json-shape.ts compiled to one function per message type, as
 * protobufjs compiles its own decoders: every field becomes straight-line code with its JSON key
 * as a constant property name and its shape's branches resolved, so a message is converted
 * without a closure call or a keyed (megamorphic) store per field. A Pod decoded from Protobuf
 * converted in ~4 µs this way instead of ~14 µs through a loop over the field plans; every
 * Protobuf request body, answer and client response goes through here.
 *
 * Only names from the .proto files and their options reach the generated source, each quoted
 * with JSON.stringify; values are never part of it.
 */
import { ProtobufEncodeError } from './errors.js';
import { setOwn } from '../../machinery/own-property.js';

type Msg = Record<string, unknown>;
export type Shape = 'omitempty' | 'pointer' | 'always' | 'nullable' | 'inline';

export interface FieldPlan {
  /** The field's name in the protobufjs message object. */
  name: string;
  /** The field's key in the JSON object. */
  key: string;
  shape: Shape;
  container: 'single' | 'repeated' | 'map';
  /** Message-typed (incl. Time, Quantity...): JSON is always shown for a Go value struct. */
  isMessage: boolean;
  /** toJson returns its argument (strings, bools, 32-bit numbers): no call is made for it. */
  identity: boolean;
  /** Converts one element (the field itself, an array item or a map value) to JSON. */
  toJson: (v: unknown) => unknown;
  /** Converts one JSON element to what protobufjs' encoder accepts. */
  fromJson: (v: unknown) => unknown;
  /** JSON for a non-pointer field that is absent (or zero): '' / 0 / false / {} / null. */
  zeroJson: () => unknown;
  isZero: (v: unknown) => boolean;
  /** Adds what Go always writes to one JSON element of an ordinary message type; absent for scalars and json-specials. */
  fill?: (v: Msg) => void;
}

const q = JSON.stringify;

/** The statements converting field i of a decoded message `m` into `out`. */
function toJsonStatements(f: FieldPlan, i: number): string {
  const src = `m[${q(f.name)}]`;
  const dst = `out[${q(f.key)}]`;
  const conv = (x: string) => (f.identity ? x : `F[${i}].toJson(${x})`);
  const zero = `F[${i}].zeroJson()`;
  const absent = f.shape === 'always' ? (f.container === 'map' ? `${dst} = {};` : `${dst} = [];`) : f.shape === 'nullable' ? `${dst} = null;` : '';
  if (f.container === 'map') {
    return `v = ${src};
  ks = v ? Object.keys(v) : EMPTY;
  if (ks.length === 0) { ${absent} } else {
    const o = {};
    for (const k of ks) setOwn(o, k, ${conv('v[k]')});
    ${dst} = o;
  }`;
  }
  if (f.container === 'repeated') {
    return `v = ${src};
  if (!v || v.length === 0) { ${absent} } else {
    const l = new Array(v.length);
    for (let j = 0; j < v.length; j++) l[j] = ${conv('v[j]')};
    ${dst} = l;
  }`;
  }
  const present = `Object.hasOwn(m, ${q(f.name)})`;
  if (f.shape === 'inline') {
    // A Go embedded struct: its fields sit in the parent's JSON object, at this position.
    return `v = ${src}; Object.assign(out, ${present} && v ? F[${i}].toJson(v) : ${zero});`;
  }
  if (f.shape === 'pointer' || f.shape === 'nullable') {
    return `v = ${src}; if (${present} && v !== null && v !== undefined) ${dst} = ${conv('v')};${f.shape === 'nullable' ? ` else ${dst} = null;` : ''}`;
  }
  // A Go value struct is always written, even with omitempty (a zero Time as null).
  if (f.isMessage) return `v = ${src}; ${dst} = ${present} && v ? ${conv('v')} : ${zero};`;
  return `v = ${src}; if (!${present} || F[${i}].isZero(v)) { ${f.shape === 'always' ? `${dst} = ${zero};` : ''} } else ${dst} = ${conv('v')};`;
}

/**
 * A function writing the JSON object of a decoded message, fields in .proto (= Go struct) order,
 * into `out` (a new object when not given: a caller passes one holding apiVersion and kind).
 */
export function compileToJson(fields: readonly FieldPlan[]): (m: Msg, out?: Msg) => Msg {
  const body = `return function toJson(m, out = {}) {
  let v, ks;
  ${fields.map(toJsonStatements).join('\n  ')}
  return out;
};`;
  return new Function('F', 'setOwn', 'EMPTY', body)(fields, setOwn, []) as (m: Msg, out?: Msg) => Msg;
}

/** The statements converting field i of a JSON object `src` into `out`; `at` names the field for errors. */
function fromJsonStatements(f: FieldPlan, i: number): string {
  const dst = `out[${q(f.name)}]`;
  // The embedded struct's fields are read from this same JSON object.
  // Its errors name no field of this object (as the walk's), hence `at` cleared first.
  if (f.shape === 'inline') return `at = undefined; ${dst} = F[${i}].fromJson(src);`;
  const elem = (x: string) => `(${x} !== null ? F[${i}].fromJson(${x}) : ${f.isMessage ? '{}' : `F[${i}].fromJson(F[${i}].zeroJson())`})`;
  let convert: string;
  if (f.container === 'map') {
    convert = `if (typeof v !== 'object' || Array.isArray(v)) throw new ProtobufEncodeError('expected an object, got ' + JSON.stringify(v));
      const o = {};
      for (const k of Object.keys(v)) setOwn(o, k, ${elem('v[k]')});
      ${dst} = o;`;
  } else if (f.container === 'repeated') {
    convert = `if (!Array.isArray(v)) throw new ProtobufEncodeError('expected an array, got ' + JSON.stringify(v));
      const l = new Array(v.length);
      for (let j = 0; j < v.length; j++) l[j] = ${elem('v[j]')};
      ${dst} = l;`;
  } else {
    convert = `${dst} = F[${i}].fromJson(v);`;
  }
  return `v = src[${q(f.key)}];
  if (v !== undefined && v !== null) {
    at = ${q(f.key)};
    ${convert}
  }`;
}

/** A function building the plain object protobufjs' encoder accepts from a JSON object; null and absent values are not written. */
export function compileFromJson(typeName: string, fields: readonly FieldPlan[]): (json: unknown) => Msg {
  const body = `return function fromJson(json) {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ProtobufEncodeError('expected an object for ' + ${q(typeName)} + ', got ' + (Array.isArray(json) ? 'an array' : JSON.stringify(json)));
  }
  const src = json;
  const out = {};
  let v, at;
  try {
    ${fields.map(fromJsonStatements).join('\n    ')}
  } catch (err) {
    if (err instanceof ProtobufEncodeError && at !== undefined) throw new ProtobufEncodeError(at + ': ' + err.message);
    throw err;
  }
  return out;
};`;
  return new Function('F', 'setOwn', 'ProtobufEncodeError', body)(fields, setOwn, ProtobufEncodeError) as (json: unknown) => Msg;
}
