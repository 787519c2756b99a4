/**
 * The `/openapi/v2` document: Swagger 2.0 with upstream's shape (parameters inline, as 1.25
 * serves them; `#/definitions/` references; the BearerToken security definition).
 */
import type { Schema } from '../../api/schema/index.js';
import type { Parameter } from './parameters.js';
import { pathItems } from './path-items.js';
import type { Route } from './routes.js';

export interface SwaggerParameter {
  description?: string;
  in: string;
  name: string;
  required?: boolean;
  type?: string;
  uniqueItems?: boolean;
  schema?: Schema;
}

export interface SwaggerOperation {
  consumes: string[];
  description: string;
  operationId: string;
  parameters?: SwaggerParameter[];
  produces: string[];
  responses: Record<string, { description: string; schema?: Schema }>;
  schemes: string[];
  tags: string[];
  'x-kubernetes-action'?: string;
  'x-kubernetes-group-version-kind'?: { group: string; kind: string; version: string };
}

export type SwaggerPathItem = { parameters?: SwaggerParameter[] } & Partial<Record<Route['method'], SwaggerOperation>>;

export interface Swagger {
  swagger: '2.0';
  info: { title: string; version: string };
  paths: Record<string, SwaggerPathItem>;
  definitions: Record<string, Schema>;
  securityDefinitions: Record<string, { description: string; in: string; name: string; type: string }>;
  security: Record<string, string[]>[];
}

/** Upstream's title of both documents. */
export const TITLE = 'Kubernetes';

/** The Bearer token scheme upstream declares (the token goes in the Authorization header). */
export const BEARER_TOKEN = { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' };

/** A route parameter in Swagger 2.0 form; query and path parameters carry uniqueItems as upstream's. */
export function swaggerParameter(p: Parameter, refPrefix: string): SwaggerParameter {
  if (p.in === 'body') return { in: 'body', name: p.name, ...(p.required ? { required: true } : {}), schema: { $ref: `${refPrefix}${p.schemaRef}` } };
  return {
    ...(p.description !== undefined ? { description: p.description } : {}),
    in: p.in,
    name: p.name,
    ...(p.required ? { required: true } : {}),
    type: p.type,
    uniqueItems: true,
  };
}

function operation(route: Route, parameters: Parameter[]): SwaggerOperation {
  const responses: SwaggerOperation['responses'] = {};
  for (const r of route.responses)
    responses[r.code] = r.definition ? { description: r.description, schema: { $ref: `#/definitions/${r.definition}` } } : { description: r.description };
  responses['401'] = { description: 'Unauthorized' };
  return {
    consumes: route.consumes,
    description: route.description,
    operationId: route.operationId,
    ...(parameters.length > 0 ? { parameters: parameters.map((p) => swaggerParameter(p, '#/definitions/')) } : {}),
    produces: route.produces,
    responses,
    schemes: ['https'],
    tags: [route.tag],
    ...(route.action ? { 'x-kubernetes-action': route.action } : {}),
    ...(route.gvk ? { 'x-kubernetes-group-version-kind': route.gvk } : {}),
  };
}

/** The Swagger 2.0 document of every route, with the given (branded) definitions. */
export function buildSwagger(routes: readonly Route[], definitions: Record<string, Schema>, version: string): Swagger {
  const paths: Record<string, SwaggerPathItem> = {};
  for (const item of pathItems(routes)) {
    const entries: [string, unknown][] = item.operations.map(({ route, parameters }) => [route.method, operation(route, parameters)]);
    if (item.parameters.length > 0) entries.push(['parameters', item.parameters.map((p) => swaggerParameter(p, '#/definitions/'))]);
    // Keys in name order, as upstream's published document.
    paths[item.path] = Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : 1))) as SwaggerPathItem;
  }
  return {
    swagger: '2.0',
    info: { title: TITLE, version },
    paths,
    definitions,
    securityDefinitions: { BearerToken: BEARER_TOKEN },
    security: [{ BearerToken: [] }],
  };
}
