/**
 * What every resource handler receives (the request, its resource scope, the negotiated output),
 * and what handlers share: body decoding, admission hooks, and writing a stored object.
 */
import type { AdmissionHook, RequestContext } from '../../registry/context.js';
import type { ResourceScope } from '../scope.js';
import type { RequestInfo } from '../request-info.js';
import type { Output, Request, Response } from '../http.js';
import { addWarning, readBody, writeBody, writeObject } from '../http.js';
import { auditCaptureOf } from '../audit/capture.js';
import { mediaTypeEssence } from '../../codec/accept.js';
import { badRequest, unsupportedMediaType } from '../../machinery/status.js';
import { type DecodedBody, decodeObjectBody } from '../../codec/decode-body.js';
import { isPlainObject, type Obj } from '../../machinery/object.js';
import { objectShapeErrorSteps } from '../../machinery/object-shape.js';
import type { Admission, AdmissionAttributes } from '../../admission/admission.js';
import { Pace, runPaced } from '../../machinery/pace.js';

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
  /** The RemainingItemCount feature gate: chunked lists say how many items remain. */
  remainingItemCount: boolean;
  /** --min-request-timeout: a watch without timeoutSeconds lasts 1-2x this. */
  minRequestTimeoutSeconds: number;
}

export type { DecodedBody };

/**
 * The request's body, read whole; the write's pace starts here (its steps yield once they have
 * held the thread for a slice: machinery/pace.ts), not counting the time the body took to arrive.
 */
export async function readWriteBody(r: ResourceRequest): Promise<Buffer> {
  const body = await readBody(r.req);
  const pace = new Pace();
  r.ctx.pace = pace;
  // Decoding a body this large holds the thread for about a slice: it starts on its own turn,
  // so bodies that arrived in the same poll phase are not decoded back to back.
  if (body.length >= HEAVY_BODY_BYTES) await pace.yield();
  return body;
}

/** Where decoding a JSON body takes about a slice (machinery/pace.ts) on this class of machine. */
const HEAVY_BODY_BYTES = 512 * 1024;

/** Decodes a request body into a JSON value per its Content-Type (JSON, YAML or protobuf). */
export async function readObjectBody(r: ResourceRequest): Promise<DecodedBody> {
  const type = mediaTypeEssence(r.req.headers['content-type'] as string | undefined) || 'application/json';
  const protobufTypes = r.ctx.brand.protobufMediaTypes;
  const accepted = ['application/json', 'application/yaml', ...protobufTypes];
  if (!accepted.includes(type)) throw unsupportedMediaType(accepted);
  const { apiVersion, kind } = r.scope;
  const decoded = await decodeObjectBody(
    type,
    await readWriteBody(r),
    { apiVersion, version: r.scope.info.version, kind, protobufMediaTypes: protobufTypes },
    r.ctx.pace,
  );
  auditCaptureOf(r.req)?.requestObject(decoded.value);
  return decoded;
}

/** Checks a body is an object of the URL's kind and apiVersion (when it says which). */
export function expectObjectOfKind(r: ResourceRequest, body: unknown): Obj | Promise<Obj> {
  const info = r.scope;
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
  const checked = checkObjectShape(r, obj);
  return checked instanceof Promise ? checked.then(() => ofKind(r, obj)) : ofKind(r, obj);
}

function ofKind(r: ResourceRequest, obj: Obj): Obj {
  obj.apiVersion = r.scope.apiVersion;
  obj.kind = r.scope.kind;
  return obj;
}

/**
 * Refuses (400) what upstream's typed decoding cannot hold (a string of labels, a deep nest).
 * The walk is the request's paced work: a heavy object's is done in slices.
 */
export function checkObjectShape(r: ResourceRequest, obj: Obj): void | Promise<void> {
  const shape = runPaced((due) => objectShapeErrorSteps(obj, due), r.ctx.pace);
  return shape instanceof Promise ? shape.then((s) => refuseShape(r, s)) : refuseShape(r, shape);
}

function refuseShape(r: ResourceRequest, shape: string | undefined): void {
  const info = r.scope;
  if (shape !== undefined) throw badRequest(`${info.kind} in version "${info.info.version}" cannot be handled as a ${info.kind}: ${shape}`);
}

/** What admission is told of a write of this request on obj (old: the stored object, if any). */
function admissionAttributes(
  r: ResourceRequest,
  operation: AdmissionAttributes['operation'],
  obj: Obj,
  old: Obj | undefined,
  name = r.name,
): AdmissionAttributes {
  return {
    operation,
    resource: r.scope.info,
    namespace: r.namespace,
    name,
    subresource: r.subresource,
    object: obj,
    oldObject: old,
    ctx: r.ctx,
    // The write options already refused any dryRun value but `All`.
    dryRun: r.query.has('dryRun'),
    warn: (text) => addWarning(r.res, text),
    annotate: (key, value, level) => auditCaptureOf(r.res)?.annotate(key, value, level),
  };
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
  // A dry run stored nothing: the cache holds the old object. A subresource answering in its
  // own kind (a Scale) is not the stored object either.
  const store = r.scope.kind === r.scope.info.kind ? r.scope.store : undefined;
  const bytes = jsonFirst && rv > 0 && !dryRun && store !== undefined ? store.encodedAt(meta?.namespace ?? '', meta?.name ?? '', rv) : undefined;
  if (bytes === undefined) {
    writeObject(r.res, code, obj, r.output);
    return;
  }
  writeBody(r.res, code, 'application/json', bytes);
}
