/**
 * How the audit record of a request sees its bodies without the handlers knowing audit: the
 * shared body readers and writers (http.ts, readObjectBody) report to the capture registered for
 * the request or response, if any. With no audit policy in the process nothing is registered and
 * each hook costs one comparison; a capture keeps references, and copies only what its level needs.
 */

export interface AuditCapture {
  /** The raw request body as read (patches, options); a decoded object, when reported, supersedes it. */
  requestBody(contentType: string, bytes: Buffer): void;
  /** The request's object as decoded, before admission or storage changes it. */
  requestObject(obj: unknown): void;
  /** The value a response is encoded from (an object, a list, a Status). */
  responseObject(value: unknown): void;
  /** The bytes of a response written without a value (objects the cache holds encoded). */
  responseBody(contentType: string, bytes: Buffer): void;
  /**
   * Adds an annotation to the event (a key keeps its first value); with `level`, only when the
   * event's level is at least that (upstream's AddAnnotationWithLevel).
   */
  annotate(key: string, value: string, level?: 'Metadata' | 'Request' | 'RequestResponse'): void;
}

const captures = new WeakMap<object, AuditCapture>();
/** Servers in this process with an audit policy: none, and every hook is a single comparison. */
let auditingServers = 0;

/** The capture of a request or response, if its audit level records anything. */
export function auditCaptureOf(reqOrRes: object): AuditCapture | undefined {
  return auditingServers === 0 ? undefined : captures.get(reqOrRes);
}

/** Registers a request's capture under its request and its response. */
export function registerCapture(req: object, res: object, capture: AuditCapture): void {
  captures.set(req, capture);
  captures.set(res, capture);
}

/** A server with an audit policy starts; the returned function says it stopped. */
export function auditingServerStarted(): () => void {
  auditingServers++;
  let stopped = false;
  return () => {
    if (!stopped) auditingServers--;
    stopped = true;
  };
}
