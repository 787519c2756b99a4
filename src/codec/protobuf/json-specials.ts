/**
 * Messages whose JSON form is not an object of their fields: Go gives these types their own
 * MarshalJSON/UnmarshalJSON (a timestamp string, a quantity string, an int-or-string, an
 * embedded document, a bare array, a schema-or-bool...). json-shape.ts converts any field of
 * one of these message types with the pair registered here instead of walking its fields.
 */
import { ProtobufEncodeError } from './errors.js';
import {
  extraValueFromJson,
  extraValueToJson,
  fieldsV1FromJson,
  fieldsV1ToJson,
  intOrStringFromJson,
  intOrStringToJson,
  microTimeToJson,
  quantityFromJson,
  quantityToJson,
  rawExtensionFromJson,
  rawExtensionToJson,
  timeFromJson,
  timeToJson,
} from './wire-values.js';

type Msg = Record<string, unknown>;

/** A message value's JSON form (toJson) and its reverse (fromJson, to a protobufjs-encodable object). */
export interface SpecialConverter {
  toJson: (m: Msg) => unknown;
  fromJson: (v: unknown) => Msg;
}

/** Converters of one message-typed field of the special message (for specials that nest messages). */
export type NestedConverters = (field: string) => { toJson: (v: unknown) => unknown; fromJson: (v: unknown) => unknown };

const META = '.k8s.io.apimachinery.pkg.apis.meta.v1';
const APIEXTENSIONS = '.k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1';

const fixed = (c: SpecialConverter) => (): SpecialConverter => c;

const rawJson: SpecialConverter = { toJson: rawExtensionToJson, fromJson: rawExtensionFromJson };
const extraValue: SpecialConverter = { toJson: extraValueToJson, fromJson: extraValueFromJson };

function isObject(v: unknown): v is Msg {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mismatch(what: string, v: unknown): never {
  throw new ProtobufEncodeError(`expected ${what}, got ${JSON.stringify(v)}`);
}

/**
 * apiextensions JSONSchemaPropsOrArray: a schema, or an array of schemas (Go writes the array
 * when it is non-empty, else the schema, else null).
 */
function schemaOrArray(nested: NestedConverters): SpecialConverter {
  return {
    toJson: (m) => {
      const list = m.jSONSchemas as unknown[] | undefined;
      if (list && list.length > 0) return list.map((s) => nested('jSONSchemas').toJson(s));
      return m.schema ? nested('schema').toJson(m.schema) : null;
    },
    fromJson: (v) => {
      if (Array.isArray(v)) return { jSONSchemas: v.map((s) => nested('jSONSchemas').fromJson(s)) };
      return isObject(v) ? { schema: nested('schema').fromJson(v) } : mismatch('a schema or an array of schemas', v);
    },
  };
}

/** apiextensions JSONSchemaPropsOrBool: a schema (which allows), or a bare boolean. */
function schemaOrBool(nested: NestedConverters): SpecialConverter {
  return {
    toJson: (m) => (m.schema ? nested('schema').toJson(m.schema) : m.allows === true),
    fromJson: (v) => {
      if (typeof v === 'boolean') return { allows: v };
      return isObject(v) ? { allows: true, schema: nested('schema').fromJson(v) } : mismatch('a schema or a boolean', v);
    },
  };
}

/** apiextensions JSONSchemaPropsOrStringArray: an array of property names, or a schema. */
function schemaOrStringArray(nested: NestedConverters): SpecialConverter {
  return {
    toJson: (m) => {
      const props = m.property as string[] | undefined;
      if (props && props.length > 0) return [...props];
      return m.schema ? nested('schema').toJson(m.schema) : null;
    },
    fromJson: (v) => {
      if (Array.isArray(v)) return { property: extraValueFromJson(v).items };
      return isObject(v) ? { schema: nested('schema').fromJson(v) } : mismatch('a schema or an array of strings', v);
    },
  };
}

/** Fully qualified message name (with the leading dot protobufjs uses) -> its converter factory. */
export const SPECIAL_MESSAGES: Readonly<Record<string, (nested: NestedConverters) => SpecialConverter>> = {
  [`${META}.Time`]: fixed({ toJson: timeToJson, fromJson: timeFromJson }),
  [`${META}.MicroTime`]: fixed({ toJson: microTimeToJson, fromJson: timeFromJson }),
  [`${META}.FieldsV1`]: fixed({ toJson: fieldsV1ToJson, fromJson: fieldsV1FromJson }),
  '.k8s.io.apimachinery.pkg.api.resource.Quantity': fixed({ toJson: quantityToJson, fromJson: quantityFromJson }),
  '.k8s.io.apimachinery.pkg.util.intstr.IntOrString': fixed({ toJson: intOrStringToJson, fromJson: intOrStringFromJson }),
  '.k8s.io.apimachinery.pkg.runtime.RawExtension': fixed(rawJson),
  '.k8s.io.api.authentication.v1.ExtraValue': fixed(extraValue),
  '.k8s.io.api.authorization.v1.ExtraValue': fixed(extraValue),
  '.k8s.io.api.certificates.v1.ExtraValue': fixed(extraValue),
  [`${APIEXTENSIONS}.JSON`]: fixed(rawJson),
  [`${APIEXTENSIONS}.JSONSchemaPropsOrArray`]: schemaOrArray,
  [`${APIEXTENSIONS}.JSONSchemaPropsOrBool`]: schemaOrBool,
  [`${APIEXTENSIONS}.JSONSchemaPropsOrStringArray`]: schemaOrStringArray,
};
