/**
 * One `/openapi/v3/<group-version>` document: OpenAPI 3.0 over the routes of one group-version
 * (or of `api`, `apis`, a group, `version`), with the definitions those routes reach under
 * `components.schemas` and references rewritten to `#/components/schemas/`.
 */
import type { Schema } from '../../api/schema/index.js';
import { reachableDefinitions } from './definitions.js';
import type { Parameter } from './parameters.js';
import { pathItems } from './path-items.js';
import type { Route } from './routes.js';
import { BEARER_TOKEN, TITLE } from './swagger.js';

const V2_REF = '#/definitions/';
const V3_REF = '#/components/schemas/';

export interface OpenAPIV3Parameter {
  description?: string;
  in: string;
  name: string;
  required?: boolean;
  schema: { type?: string; uniqueItems: boolean };
}

type Content = Record<string, { schema: { $ref: string } }>;

export interface OpenAPIV3Operation {
  tags: string[];
  description: string;
  operationId: string;
  parameters?: OpenAPIV3Parameter[];
  requestBody?: { content: Content; required?: boolean };
  responses: Record<string, { description: string; content?: Content }>;
  'x-kubernetes-action'?: string;
  'x-kubernetes-group-version-kind'?: { group: string; kind: string; version: string };
}

export interface OpenAPIV3Document {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, typeof BEARER_TOKEN> };
  security: Record<string, string[]>[];
}

/** A v2 schema with its references pointing at `#/components/schemas/`; property names are left alone. */
export function toV3Schema(s: Schema): Schema {
  const out: Schema = { ...s };
  if (s.$ref !== undefined) out.$ref = s.$ref.startsWith(V2_REF) ? `${V3_REF}${s.$ref.slice(V2_REF.length)}` : s.$ref;
  if (s.items) out.items = toV3Schema(s.items);
  if (s.additionalProperties) out.additionalProperties = toV3Schema(s.additionalProperties);
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toV3Schema(v)]));
  return out;
}

/** Definitions are shared by many documents: each is converted once. */
const converted = new WeakMap<Schema, Schema>();
function v3Definition(s: Schema): Schema {
  let out = converted.get(s);
  if (out === undefined) {
    out = toV3Schema(s);
    converted.set(s, out);
  }
  return out;
}

function parameter(p: Parameter): OpenAPIV3Parameter {
  return {
    ...(p.description !== undefined ? { description: p.description } : {}),
    in: p.in,
    name: p.name,
    ...(p.required ? { required: true } : {}),
    schema: { type: p.type, uniqueItems: true },
  };
}

function content(types: readonly string[], definition: string): Content {
  return Object.fromEntries(types.map((t) => [t, { schema: { $ref: `${V3_REF}${definition}` } }]));
}

function operation(route: Route, parameters: Parameter[]): OpenAPIV3Operation {
  const body = parameters.find((p) => p.in === 'body');
  const others = parameters.filter((p) => p.in !== 'body');
  const responses: OpenAPIV3Operation['responses'] = {};
  for (const r of route.responses) {
    responses[r.code] = r.definition ? { description: r.description, content: content(route.produces, r.definition) } : { description: r.description };
  }
  responses['401'] = { description: 'Unauthorized' };
  return {
    tags: [route.tag],
    description: route.description,
    operationId: route.operationId,
    ...(others.length > 0 ? { parameters: others.map(parameter) } : {}),
    ...(body?.schemaRef ? { requestBody: { content: content(route.consumes, body.schemaRef), ...(body.required ? { required: true } : {}) } } : {}),
    responses,
    ...(route.action ? { 'x-kubernetes-action': route.action } : {}),
    ...(route.gvk ? { 'x-kubernetes-group-version-kind': route.gvk } : {}),
  };
}

/** The OpenAPI 3.0 document of one group-version's routes, over the given (branded, v2-form) definitions. */
export function buildOpenAPIV3(routes: readonly Route[], definitions: Record<string, Schema>, version: string): OpenAPIV3Document {
  const paths: OpenAPIV3Document['paths'] = {};
  const roots = new Set<string>();
  for (const item of pathItems(routes)) {
    const entries: [string, unknown][] = item.operations.map(({ route, parameters }) => [route.method, operation(route, parameters)]);
    if (item.parameters.length > 0) entries.push(['parameters', item.parameters.map(parameter)]);
    paths[item.path] = Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1)));
    for (const { route, parameters } of item.operations) {
      for (const r of route.responses) if (r.definition) roots.add(r.definition);
      for (const p of parameters) if (p.schemaRef) roots.add(p.schemaRef);
    }
  }
  const schemas: Record<string, Schema> = {};
  for (const name of reachableDefinitions(definitions, roots)) schemas[name] = v3Definition(definitions[name]);
  return {
    openapi: '3.0.0',
    info: { title: TITLE, version },
    paths,
    components: { schemas, securitySchemes: { BearerToken: BEARER_TOKEN } },
    security: [{ BearerToken: [] }],
  };
}
