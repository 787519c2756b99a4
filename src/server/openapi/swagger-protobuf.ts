/**
 * The `/openapi/v2` document in the Protocol Buffers form kubectl asks for: gnostic's
 * `openapi.v2.Document` (OpenAPIv2.proto beside this file), as kube-openapi makes it by parsing
 * the JSON document with gnostic. Free-form values (vendor extensions, defaults, enums) are
 * gnostic `Any` messages holding the value as YAML, which is how clients read them back.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { stringify } from 'yaml';
import type { Schema } from '../../api/schema/index.js';
import type { Swagger, SwaggerOperation, SwaggerParameter, SwaggerPathItem } from './swagger.js';

/** The .proto is read from the source tree (tsc does not copy it): beside this module, or from dist/ up to src/. */
const PROTO_CANDIDATES = [new URL('./OpenAPIv2.proto', import.meta.url), new URL('../../../../src/server/openapi/OpenAPIv2.proto', import.meta.url)];

let documentType: protobuf.Type | undefined;

function gnosticDocument(): protobuf.Type {
  if (documentType) return documentType;
  const file = PROTO_CANDIDATES.map((u) => fileURLToPath(u)).find((f) => existsSync(f));
  if (file === undefined) throw new Error(`OpenAPIv2.proto not found; looked in: ${PROTO_CANDIDATES.map((u) => fileURLToPath(u)).join(', ')}`);
  const root = new protobuf.Root().loadSync(file, { keepCase: true });
  root.resolveAll();
  documentType = root.lookupType('openapi.v2.Document');
  return documentType;
}

type Message = Record<string, unknown>;

/** YAML texts by JSON text: the same few extension values (actions, group-version-kinds, strategies) recur thousands of times. */
const yamlTexts = new Map<string, string>();

/** gnostic's Any: the value as YAML text. */
function any(value: unknown): Message {
  const key = JSON.stringify(value);
  let yaml = yamlTexts.get(key);
  if (yaml === undefined) {
    yaml = stringify(value, { lineWidth: 0 });
    yamlTexts.set(key, yaml);
  }
  return { yaml };
}

/** The `x-` keys of an object, as gnostic's NamedAny list (in the object's key order). */
function vendorExtensions(obj: object): Message[] {
  return Object.entries(obj)
    .filter(([k]) => k.startsWith('x-'))
    .map(([name, value]) => ({ name, value: any(value) }));
}

/** Sets `key` on a message only when the value is present, as gnostic leaves absent fields unset. */
function put(m: Message, key: string, value: unknown): void {
  if (value !== undefined && !(Array.isArray(value) && value.length === 0)) m[key] = value;
}

function schema(s: Schema): Message {
  const m: Message = {};
  put(m, '_ref', s.$ref);
  put(m, 'format', s.format);
  put(m, 'description', s.description);
  if (s.default !== undefined) m.default = any(s.default);
  put(m, 'required', s.required);
  put(
    m,
    'enum',
    s.enum?.map((v) => any(v)),
  );
  if (s.additionalProperties) m.additional_properties = { schema: schema(s.additionalProperties) };
  if (s.type) m.type = { value: [s.type] };
  if (s.items) m.items = { schema: [schema(s.items)] };
  if (s.properties) m.properties = { additional_properties: Object.entries(s.properties).map(([name, value]) => ({ name, value: schema(value) })) };
  put(m, 'vendor_extension', vendorExtensions(s));
  return m;
}

function parameter(p: SwaggerParameter): Message {
  if (p.in === 'body') {
    const body: Message = {};
    put(body, 'description', p.description);
    put(body, 'name', p.name);
    put(body, 'in', p.in);
    if (p.required) body.required = true;
    if (p.schema) body.schema = schema(p.schema);
    return { parameter: { body_parameter: body } };
  }
  const sub: Message = {};
  if (p.required) sub.required = true;
  put(sub, 'in', p.in);
  put(sub, 'description', p.description);
  put(sub, 'name', p.name);
  put(sub, 'type', p.type);
  if (p.uniqueItems) sub.unique_items = true;
  const kind = p.in === 'path' ? 'path_parameter_sub_schema' : p.in === 'header' ? 'header_parameter_sub_schema' : 'query_parameter_sub_schema';
  return { parameter: { non_body_parameter: { [kind]: sub } } };
}

function operation(op: SwaggerOperation): Message {
  const m: Message = {};
  put(m, 'tags', op.tags);
  put(m, 'description', op.description);
  put(m, 'operation_id', op.operationId);
  put(m, 'produces', op.produces);
  put(m, 'consumes', op.consumes);
  put(m, 'parameters', op.parameters?.map(parameter));
  m.responses = {
    response_code: Object.entries(op.responses).map(([name, r]) => {
      const response: Message = { description: r.description };
      if (r.schema) response.schema = { schema: schema(r.schema) };
      return { name, value: { response } };
    }),
  };
  put(m, 'schemes', op.schemes);
  put(m, 'vendor_extension', vendorExtensions(op));
  return m;
}

function pathItem(item: SwaggerPathItem): Message {
  const m: Message = {};
  for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
    const op = item[method];
    if (op) m[method] = operation(op);
  }
  put(m, 'parameters', item.parameters?.map(parameter));
  return m;
}

/** The gnostic Document message of a Swagger document, as a plain object (exported for tests). */
export function gnosticMessage(doc: Swagger): Message {
  return {
    swagger: doc.swagger,
    info: { title: doc.info.title, version: doc.info.version },
    paths: { path: Object.entries(doc.paths).map(([name, item]) => ({ name, value: pathItem(item) })) },
    definitions: { additional_properties: Object.entries(doc.definitions).map(([name, value]) => ({ name, value: schema(value) })) },
    security: doc.security.map((req) => ({ additional_properties: Object.entries(req).map(([name, value]) => ({ name, value: { value } })) })),
    security_definitions: {
      additional_properties: Object.entries(doc.securityDefinitions).map(([name, d]) => ({
        name,
        value: { api_key_security: { type: d.type, name: d.name, in: d.in, description: d.description } },
      })),
    },
  };
}

/** The Protocol Buffers encoding of a Swagger document. */
export function encodeSwagger(doc: Swagger): Uint8Array {
  return gnosticDocument().encode(gnosticMessage(doc)).finish();
}

/** Decodes an encoded document back to its message (for tests and debugging). */
export function decodeSwagger(bytes: Uint8Array): Message {
  return gnosticDocument().toObject(gnosticDocument().decode(bytes), { defaults: false, arrays: true, longs: Number }) as Message;
}
