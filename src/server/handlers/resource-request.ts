/**
 * What every resource handler receives, and the decoding shared by them: body, query options
 * (dryRun, list options, delete options) and response negotiation.
 */
import type { GenericStore } from '../../registry/generic-store.js';
import type { RequestContext, AdmitFn, ListOptions } from '../../registry/context.js';
import type { Registry } from '../../registry/registry.js';
import type { RequestInfo } from '../request-info.js';
import type { Output, Request, Response } from '../http.js';
import { readBody, writeBody, writeObject } from '../http.js';
import { mediaTypeEssence } from '../../codec/accept.js';
import { badRequest, unsupportedMediaType } from '../../machinery/status.js';
import { type DecodedBody, decodeObjectBody } from '../../codec/decode-body.js';
import { isPlainObject, type Obj } from '../../machinery/object.js';
import { objectShapeError } from '../../machinery/object-shape.js';
import type { Admission, AdmissionAttributes } from '../../admission/admission.js';
import type { ReviewDeps } from '../../registry/reviews.js';

export interface ResourceRequest {
  req: Request;
  res: Response;
  info: RequestInfo;
  query: URLSearchParams;
  store: GenericStore;
  registry: Registry;
  ctx: RequestContext;
  admission: Admission;
  reviews: ReviewDeps;
  /** Namespace of the object (empty for cluster-scoped types). */
  namespace: string;
  name: string;
  subresource: string;
  /** Negotiated response encodings and pretty-printing. */
  output: Output;
  /** Resolves when the server begins shutting down (watches end then). */
  shuttingDown: Promise<void>;
  /** The ServerSideApply feature gate: apply patches and managedFields tracking. */
  serverSideApply: boolean;
}

export type { DecodedBody };

/** Decodes a request body into a JSON value per its Content-Type (JSON, YAML or protobuf). */
export async function readObjectBody(r: ResourceRequest): Promise<DecodedBody> {
  const type = mediaTypeEssence(r.req.headers['content-type'] as string | undefined) || 'application/json';
  const protobufTypes = r.ctx.brand.protobufMediaTypes;
  const accepted = ['application/json', 'application/yaml', ...protobufTypes];
  if (!accepted.includes(type)) throw unsupportedMediaType(accepted);
  const { apiVersion, version, kind } = r.store.info;
  return decodeObjectBody(type, await readBody(r.req), { apiVersion, version, kind, protobufMediaTypes: protobufTypes });
}

/** Checks a body is an object of the URL's kind and apiVersion (when it says which). */
export function expectObjectOfKind(r: ResourceRequest, body: unknown): Obj {
  const info = r.store.info;
  if (!isPlainObject(body)) throw badRequest(`the object provided is unrecognized (must be of type ${info.kind})`);
  const obj = body as Obj;
  if (obj.apiVersion !== undefined && obj.apiVersion !== '' && obj.apiVersion !== info.apiVersion) {
    throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${info.apiVersion})`);
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== info.kind) {
    throw badRequest(
      `the object provided is unrecognized (must be of type ${info.kind}): couldn't get version/kind; json parse error: kind ${String(obj.kind)} is not ${info.kind}`,
    );
  }
  if (obj.metadata !== undefined && !isPlainObject(obj.metadata)) throw badRequest('metadata must be an object');
  // Upstream's typed decoding refuses what its Go types cannot hold (a string of labels, a deep nest).
  const shape = objectShapeError(obj);
  if (shape !== undefined) throw badRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${shape}`);
  obj.apiVersion = info.apiVersion;
  obj.kind = info.kind;
  return obj;
}

/** `dryRun=All` → true; absent → false; anything else is 400. */
export function dryRunOf(query: URLSearchParams): boolean {
  const values = query.getAll('dryRun');
  if (values.length === 0) return false;
  for (const v of values) {
    if (v !== 'All') throw badRequest(`Invalid dryRun value: Unsupported value: "${v}": supported values: "All"`);
  }
  return true;
}

function intParam(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)}: strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = Number(v);
  // Beyond int64 upstream fails to parse; beyond 2^53 a JS number is no longer exact either.
  if (!Number.isSafeInteger(n))
    throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)}: strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  return n;
}

/** Parses list/watch query parameters. */
export function listOptionsOf(query: URLSearchParams): ListOptions {
  const limit = intParam(query, 'limit');
  return {
    labelSelector: query.get('labelSelector') ?? undefined,
    fieldSelector: query.get('fieldSelector') ?? undefined,
    limit,
    continue: query.get('continue') ?? undefined,
    resourceVersion: query.get('resourceVersion') ?? undefined,
    resourceVersionMatch: query.get('resourceVersionMatch') ?? undefined,
  };
}

export { intParam };

/** What admission is told of a write of this request on obj (old: the stored object, if any). */
function admissionAttributes(r: ResourceRequest, operation: AdmissionAttributes['operation'], obj: Obj, old: Obj | undefined): AdmissionAttributes {
  return { operation, resource: r.store.info, namespace: r.namespace, name: r.name, subresource: r.subresource, object: obj, oldObject: old, ctx: r.ctx };
}

/** The mutating-admission callback for a write of this request. */
export function mutateFor(r: ResourceRequest, operation: 'CREATE' | 'UPDATE'): AdmitFn {
  return (obj, old) => r.admission.admit(admissionAttributes(r, operation, obj, old));
}

/** The validating-admission callback for a write of this request. */
export function admitFor(r: ResourceRequest, operation: AdmissionAttributes['operation']): AdmitFn {
  return (obj, old) => r.admission.validate(admissionAttributes(r, operation, obj, old));
}

/**
 * Writes an object just stored: compact JSON reuses the bytes the watch cache encoded for it
 * (the write's event reached the cache before the write resolved), anything else encodes.
 */
export function writeStored(r: ResourceRequest, code: number, obj: Obj, dryRun: boolean): void {
  const meta = obj.metadata;
  const rv = Number(meta?.resourceVersion);
  const jsonFirst = r.output.encodings[0] === 'json' && !r.output.pretty;
  // A dry run stored nothing: the cache holds the old object.
  const bytes = jsonFirst && rv > 0 && !dryRun ? r.store.encodedAt(meta?.namespace ?? '', meta?.name ?? '', rv) : undefined;
  if (bytes === undefined) {
    writeObject(r.res, code, obj, r.output);
    return;
  }
  writeBody(r.res, code, 'application/json', bytes);
}
