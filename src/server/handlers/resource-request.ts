/**
 * What every resource handler receives (the request, its resource scope, the negotiated output),
 * and what handlers share: body decoding, admission hooks, and writing a stored object.
 */
import { parse as parseYaml } from 'yaml';
import type { AdmissionHook, RequestContext } from '../../registry/context.js';
import type { ResourceScope } from '../scope.js';
import type { RequestInfo } from '../request-info.js';
import type { Output, Request, Response } from '../http.js';
import { readBody, writeBody, writeObject } from '../http.js';
import { mediaTypeEssence } from '../../codec/accept.js';
import { badRequest, unsupportedMediaType } from '../../machinery/status.js';
import { isPlainObject, type Obj } from '../../machinery/object.js';
import { objectShapeError } from '../../machinery/object-shape.js';
import type { Admission, AdmissionAttributes } from '../../admission/admission.js';
import { decodeProtobufObject, ProtobufDecodeError, UnsupportedProtobufType } from '../../codec/protobuf/index.js';

export interface ResourceRequest {
  req: Request;
  res: Response;
  info: RequestInfo;
  query: URLSearchParams;
  /** What the addressed resource or subresource is and serves, built at registration. */
  scope: ResourceScope;
  ctx: RequestContext;
  admission: Admission;
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
  /** --min-request-timeout: a watch without timeoutSeconds lasts 1-2x this. */
  minRequestTimeoutSeconds: number;
}

/** A decoded request body, and its text when it was JSON (for repeated-key checks). */
export interface DecodedBody {
  value: unknown;
  json?: string;
}

/** Decodes a request body into a JSON value per its Content-Type (JSON, YAML or protobuf). */
export async function readObjectBody(r: ResourceRequest): Promise<DecodedBody> {
  const type = mediaTypeEssence(r.req.headers['content-type'] as string | undefined) || 'application/json';
  const protobufTypes = r.ctx.brand.protobufMediaTypes;
  const accepted = ['application/json', 'application/yaml', ...protobufTypes];
  if (!accepted.includes(type)) throw unsupportedMediaType(accepted);
  const body = await readBody(r.req);
  if (protobufTypes.includes(type)) return { value: decodeProtobufBody(r, body) };
  const text = body.toString('utf8');
  if (type.endsWith('yaml')) {
    try {
      // A `!!binary` scalar reads as its bytes in a string, as go-yaml decodes it, not as a Uint8Array.
      return { value: parseYaml(text, (_key, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v)) };
    } catch (e) {
      throw badRequest(`error converting YAML to JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  try {
    return { value: JSON.parse(text), json: text };
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** A protobuf body as the JSON object the JSON path would have read. */
function decodeProtobufBody(r: ResourceRequest, body: Buffer): unknown {
  const info = r.scope;
  try {
    return decodeProtobufObject(body, { apiVersion: info.apiVersion, kind: info.kind });
  } catch (e) {
    if (e instanceof UnsupportedProtobufType) throw unsupportedMediaType(['application/json', 'application/yaml']);
    if (e instanceof ProtobufDecodeError) throw badRequest(`error decoding protobuf body: ${e.message}`);
    throw e;
  }
}

/** Checks a body is an object of the URL's kind and apiVersion (when it says which). */
export function expectObjectOfKind(r: ResourceRequest, body: unknown): Obj {
  const info = r.scope;
  const version = r.scope.info.version;
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
  if (shape !== undefined) throw badRequest(`${info.kind} in version "${version}" cannot be handled as a ${info.kind}: ${shape}`);
  obj.apiVersion = info.apiVersion;
  obj.kind = info.kind;
  return obj;
}

/** What admission is told of a write of this request on obj (old: the stored object, if any). */
function admissionAttributes(
  r: ResourceRequest,
  operation: AdmissionAttributes['operation'],
  obj: Obj,
  old: Obj | undefined,
  name = r.name,
): AdmissionAttributes {
  return { operation, resource: r.scope.info, namespace: r.namespace, name, subresource: r.subresource, object: obj, oldObject: old, ctx: r.ctx };
}

/** Mutating admission of a write of this request, as the registry runs it. */
export function mutatingAdmissionFor(r: ResourceRequest, operation: 'CREATE' | 'UPDATE'): AdmissionHook {
  return (obj, old) => r.admission.mutate(admissionAttributes(r, operation, obj, old));
}

/** Validating admission of a write of this request (`name`: another object's, for a collection delete). */
export function validatingAdmissionFor(r: ResourceRequest, operation: AdmissionAttributes['operation'], name = r.name): AdmissionHook {
  return (obj, old) => r.admission.validate(admissionAttributes(r, operation, obj, old, name));
}

/**
 * Writes an object just stored: compact JSON reuses the bytes the watch cache encoded for it
 * (the write's event reached the cache before the write resolved), anything else encodes.
 */
export function writeStored(r: ResourceRequest, code: number, obj: Obj, dryRun: boolean): void {
  const meta = isPlainObject(obj.metadata) ? (obj.metadata as { namespace?: string; name?: string; resourceVersion?: string }) : undefined;
  const rv = Number(meta?.resourceVersion);
  const jsonFirst = r.output.encodings[0] === 'json' && !r.output.pretty;
  // A dry run stored nothing: the cache holds the old object.
  const store = r.scope.store;
  const bytes = jsonFirst && rv > 0 && !dryRun && store !== undefined ? store.encodedAt(meta?.namespace ?? '', meta?.name ?? '', rv) : undefined;
  if (bytes === undefined) {
    writeObject(r.res, code, obj, r.output);
    return;
  }
  writeBody(r.res, code, 'application/json', bytes);
}
