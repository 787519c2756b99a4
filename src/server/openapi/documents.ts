/**
 * The published OpenAPI documents of one server, built on first request (they are large and
 * most processes never serve them) and then kept as bytes with their ETags, as upstream's
 * handler caches: `/openapi/v2` as JSON and Protocol Buffers, `/openapi/v3` as an index of
 * one JSON document per group-version, each linked with its hash.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { apiSchemas, createSchemaLookup, type Schema, type SchemaLookup, upstreamGroup } from '../../api/schema/index.js';
import type { Brand } from '../../machinery/brand.js';
import type { GroupVersions } from '../../registry/registry.js';
import type { ResourceInfo } from '../../registry/resource-info.js';
import { brandedDefinitions } from './definitions.js';
import { withEnvelopes } from './envelope-definitions.js';
import { buildOpenAPIV3 } from './openapi-v3.js';
import { discoveryRoutes, resourceRoutes, type Route, type RouteDefinitions } from './routes.js';
import { buildSwagger, type Swagger } from './swagger.js';
import { encodeSwagger } from './swagger-protobuf.js';

/** One representation of a document: its bytes and upstream's ETag (hex SHA-512 of the JSON form). */
export interface Representation {
  readonly bytes: Buffer;
  readonly etag: string;
  /** The gzip-compressed bytes, compressed once on first use. */
  gzipped(): Buffer;
}

function representation(bytes: Buffer, etag: string): Representation {
  let gz: Buffer | undefined;
  return {
    bytes,
    etag,
    gzipped: () => {
      gz ??= gzipSync(bytes);
      return gz;
    },
  };
}

/** Upstream's computeETag: the SHA-512 of the JSON bytes in upper-case hex. */
export function computeETag(bytes: Buffer): string {
  return createHash('sha512').update(bytes).digest('hex').toUpperCase();
}

/** A JSON document's representation, its ETag computed from its bytes. */
function representationOf(json: Buffer): Representation {
  return representation(json, computeETag(json));
}

/** What the documents describe: the served resources and group-versions (a Registry has both). */
export interface ServedAPI {
  readonly resources: readonly ResourceInfo[];
  readonly groups: readonly GroupVersions[];
  /** Moves when resources are added or removed (a Registry's); the documents are then rebuilt. */
  readonly generation?: number;
}

export interface DocumentSource {
  registry: ServedAPI;
  brand: Brand;
  /** info.version of both documents: the server's gitVersion. */
  version: string;
  /** The type schemas; defaults to the served types' (api/schema). */
  schemas?: SchemaLookup;
}

/** The route table of a registry: discovery routes, then every resource's routes in catalogue order. */
export function routeTable(registry: ServedAPI, brand: Brand, schemas: SchemaLookup): Route[] {
  const defs: RouteDefinitions = {
    kind: (info, kind) => schemas.nameOfKind(upstreamGroup(info.def.groupStem, info.def.branded), info.version, kind),
    meta: (name) => (schemas.definition(name) ? name : undefined),
  };
  return [...discoveryRoutes(registry.groups, brand, defs), ...registry.resources.flatMap((info) => resourceRoutes(info, brand, defs))];
}

interface Built {
  v2json: Representation;
  v2protobuf: () => Representation;
  v3: Map<string, Representation>;
  v3index: Representation;
}

export class OpenAPIDocuments {
  /** When the documents were built; served as Last-Modified. */
  lastModified = new Date();
  private built?: Built;
  private builtAt?: number;

  constructor(private readonly source: DocumentSource) {}

  private build(): Built {
    const { registry, brand, version } = this.source;
    if (this.built && this.builtAt === registry.generation) return this.built;
    if (this.built) this.lastModified = new Date();
    this.builtAt = registry.generation;
    // The served group-versions under upstream's group names, where the watch event is registered.
    const groupVersions = new Map(
      registry.resources.map((r) => [`${r.def.groupStem}/${r.version}`, { group: upstreamGroup(r.def.groupStem, r.def.branded), version: r.version }]),
    );
    // Custom resources bring their own definitions (their CRD's schemas) beside the built-in ones.
    const custom: Record<string, Schema> = {};
    for (const r of registry.resources) if (r.def.openAPI) Object.assign(custom, r.def.openAPI.definitions);
    const base = (this.source.schemas ?? apiSchemas()).definitions;
    const all = Object.keys(custom).length === 0 ? base : { ...base, ...custom };
    const schemas = createSchemaLookup(withEnvelopes(all, [...groupVersions.values()]));
    const routes = routeTable(registry, brand, schemas);
    const definitions = brandedDefinitions(schemas.definitions, brand);
    let swagger: Swagger | undefined = buildSwagger(routes, definitions, version);
    const v2json = representationOf(Buffer.from(JSON.stringify(swagger)));
    let v2protobuf: Representation | undefined;
    const byDocument = new Map<string, Route[]>();
    for (const r of routes) {
      const list = byDocument.get(r.document);
      if (list) list.push(r);
      else byDocument.set(r.document, [r]);
    }
    const v3 = new Map<string, Representation>();
    const index: Record<string, { serverRelativeURL: string }> = {};
    for (const key of [...byDocument.keys()].sort()) {
      const rep = representationOf(Buffer.from(JSON.stringify(buildOpenAPIV3(byDocument.get(key) as Route[], definitions, version))));
      v3.set(key, rep);
      index[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${rep.etag}` };
    }
    this.built = {
      v2json,
      // Encoded on first request (most clients never ask for it); the ETag is the JSON form's, as upstream's.
      v2protobuf: () => {
        v2protobuf ??= representation(Buffer.from(encodeSwagger(swagger as Swagger)), v2json.etag);
        swagger = undefined;
        return v2protobuf;
      },
      v3,
      v3index: representationOf(Buffer.from(JSON.stringify({ paths: index }))),
    };
    return this.built;
  }

  /** `/openapi/v2` as JSON. */
  v2Json(): Representation {
    return this.build().v2json;
  }

  /** `/openapi/v2` as gnostic Protocol Buffers. */
  v2Protobuf(): Representation {
    return this.build().v2protobuf();
  }

  /** The `/openapi/v3` index: `{"paths": {"<group-version path>": {"serverRelativeURL": ...}}}`. */
  v3Index(): Representation {
    return this.build().v3index;
  }

  /** One `/openapi/v3/<key>` document, or undefined for an unknown key. */
  v3(key: string): Representation | undefined {
    return this.build().v3.get(key);
  }
}
