/**
 * Status errors as upstream's apimachinery builds them: code, reason, message and details.
 * Every failure a client can cause becomes a StatusError; the server turns it into a Status.
 */

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'ServerTimeout'
  | 'Timeout'
  | 'TooManyRequests'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'ServiceUnavailable'
  | '';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  /** ListMeta: empty, except for the continue token of a 410 on an expired continue token. */
  metadata: { continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** A client-caused (or server) failure that serializes to a Status object. */
export class StatusError extends Error {
  /** Sent as the Status's metadata.continue (upstream sets it on 410 for an expired continue token). */
  continueToken?: string;

  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  toStatus(): Status {
    const metadata = this.continueToken === undefined ? {} : { continue: this.continueToken };
    // Upstream's reason is omitempty: a reasonless error (an uninterpreted etcd error) has none.
    const reason = this.reason === '' ? {} : { reason: this.reason };
    // Go struct order (kind, apiVersion, metadata, status, message, reason, details, code): some
    // clients compare error bodies byte for byte.
    const details = this.details === undefined ? {} : { details: orderedDetails(this.details) };
    return { kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure', message: this.message, ...reason, ...details, code: this.code };
  }
}

/** What a resource is called in messages: `configmaps` or `deployments.apps`. */
export interface GroupResource {
  group: string;
  resource: string;
}

export function qualifiedResource(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

function details(gr: GroupResource, name: string, extra?: Partial<StatusDetails>): StatusDetails {
  const d: StatusDetails = { name, ...(gr.group === '' ? {} : { group: gr.group }), kind: gr.resource };
  return { ...d, ...extra };
}

export function notFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(404, 'NotFound', `${qualifiedResource(gr)} "${name}" not found`, details(gr, name));
}

export function alreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError(409, 'AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`, details(gr, name));
}

export function conflict(gr: GroupResource, name: string, why: string): StatusError {
  return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`, details(gr, name));
}

export const OPTIMISTIC_LOCK_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

export function forbidden(gr: GroupResource, name: string, why: string, causes?: StatusCause[]): StatusError {
  const subject = name === '' ? qualifiedResource(gr) : `${qualifiedResource(gr)} "${name}"`;
  return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${why}`, details(gr, name, causes ? { causes } : undefined));
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

export function methodNotAllowed(): StatusError {
  return new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
}

export function pathNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function unauthorized(): StatusError {
  return new StatusError(401, 'Unauthorized', 'Unauthorized');
}

export function unsupportedMediaType(accepted: string[]): StatusError {
  return new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}

export function notAcceptable(supported: string[]): StatusError {
  return new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${supported.join(', ')}`);
}

export function requestEntityTooLarge(limit: number): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

export function gone(message: string): StatusError {
  return new StatusError(410, 'Expired', message);
}

export function internalError(err: unknown): StatusError {
  const msg = err instanceof Error ? err.message : String(err);
  return new StatusError(500, 'InternalError', `Internal error occurred: ${msg}`, { causes: [{ message: msg }] });
}

export function serviceUnavailable(message: string): StatusError {
  return new StatusError(503, 'ServiceUnavailable', message);
}

// ---- field errors (apimachinery/pkg/util/validation/field) ----

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueNotFound'
  | 'FieldValueTooMany';

/** One validation failure at a field path, rendered as upstream's field.Error. */
export interface FieldError {
  type: FieldErrorType;
  field: string;
  value?: unknown;
  detail?: string;
}

/** A bad value that upstream prints as text (a Stringer such as a Quantity, or a struct's %#v). */
export class PrintedValue {
  constructor(readonly text: string) {}
}

function renderValue(v: unknown): string {
  if (v instanceof PrintedValue) return v.text;
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** Upstream's `field.Error.ErrorBody()`: the message without the field path. */
export function fieldErrorBody(e: FieldError): string {
  switch (e.type) {
    case 'FieldValueRequired':
      return e.detail ? `Required value: ${e.detail}` : 'Required value';
    case 'FieldValueForbidden':
      return e.detail ? `Forbidden: ${e.detail}` : 'Forbidden';
    case 'FieldValueTooLong':
      return e.detail ? `Too long: ${e.detail}` : 'Too long';
    case 'FieldValueTooMany':
      return e.detail ? `Too many: ${e.detail}` : 'Too many';
    case 'FieldValueDuplicate':
      return `Duplicate value: ${renderValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
    case 'FieldValueNotFound':
      return `Not found: ${renderValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
    case 'FieldValueNotSupported':
      return `Unsupported value: ${renderValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
    default:
      return `Invalid value: ${renderValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
  }
}

export const required = (field: string, detail?: string): FieldError => ({ type: 'FieldValueRequired', field, detail });
export const invalid = (field: string, value: unknown, detail?: string): FieldError => ({ type: 'FieldValueInvalid', field, value, detail });
export const forbiddenField = (field: string, detail?: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
export const tooLong = (field: string, value: unknown, max: number): FieldError => ({
  type: 'FieldValueTooLong',
  field,
  value,
  // field.TooLong's detail in 1.21–1.25.
  detail: `must have at most ${max} bytes`,
});
export const notSupported = (field: string, value: unknown, valid: string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  value,
  detail: `supported values: ${valid.map((v) => JSON.stringify(v)).join(', ')}`,
});
export const duplicate = (field: string, value: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, value });
export const fieldNotFound = (field: string, value: unknown): FieldError => ({ type: 'FieldValueNotFound', field, value });

/** 422 Invalid for a kind/name with its field errors, as upstream's errors.NewInvalid. */
export function invalidObject(kind: string, group: string, name: string, errs: FieldError[]): StatusError {
  const causes = errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
  const parts = errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
  const agg = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  const d: StatusDetails = { name, ...(group === '' ? {} : { group }), kind, causes };
  return new StatusError(422, 'Invalid', `${kind}${group === '' ? '' : `.${group}`} "${name}" is invalid: ${agg}`, d);
}

/** A Success Status, as returned by DELETE of a removed object. */
export function successStatus(d?: StatusDetails): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', ...(d ? { details: orderedDetails(d) } : {}), code: 200 };
}

/** The fields Go's omitempty keeps (not unset, "", 0 or an empty list), in the order of Go's struct. */
function inOrder<T extends object>(value: T, keys: readonly (keyof T)[]): T {
  const out: Partial<T> = {};
  for (const k of keys) {
    const v = value[k] as unknown;
    if (v === undefined || v === '' || v === 0 || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = value[k];
  }
  return out as T;
}

/** StatusDetails and its causes in Go struct order, however the error was put together. */
function orderedDetails(d: StatusDetails): StatusDetails {
  const out = inOrder(d, ['name', 'group', 'kind', 'uid', 'causes', 'retryAfterSeconds']);
  if (out.causes) out.causes = out.causes.map((c) => inOrder(c, ['reason', 'message', 'field']));
  return out;
}

/** 504 for a resourceVersion the server has not reached after waiting (upstream's TooLargeResourceVersionError). */
export function tooLargeResourceVersion(requested: number, current: number): StatusError {
  return new StatusError(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}
