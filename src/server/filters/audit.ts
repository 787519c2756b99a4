/**
 * Auditing (upstream's WithAuditInit and WithAudit). The init filter gives every request its
 * audit ID (the client's `Audit-ID` header, else a new UUID) and echoes it as `Audit-Id`. The
 * audit filter, after authentication, asks the policy what to record: at level None the request
 * costs one evaluation; otherwise an event goes to the backend at RequestReceived, at
 * ResponseStarted for long-running requests (watches), and at ResponseComplete, or Panic when a
 * filter or handler failed unexpectedly. The user it records is the authenticated one; a user the
 * impersonation filter switches to becomes `impersonatedUser`. The authorization filter's
 * decision and reason, left on the request state, become the `authorization.<domain>/decision`
 * and `/reason` annotations.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { Brand } from '../../machinery/brand.js';
import { StatusError } from '../../machinery/status.js';
import type { UserInfo } from '../../machinery/user.js';
import type { AuditBackend, AuditMetrics } from '../audit/backend.js';
import { auditCaptureOf, registerCapture } from '../audit/capture.js';
import type { AuditEvent, ObjectReference } from '../audit/event.js';
import type { Attributes } from '../../machinery/authorization.js';
import type { AuditPolicy } from '../audit/policy.js';
import { AuditRecord } from '../audit/record.js';
import type { Request, Response } from '../http.js';
import { attributesOf } from './authorization.js';
import type { Filter, RequestState } from './chain.js';
import { isLongRunning } from './long-running.js';

/** Gives the request its audit ID and sets the `Audit-Id` response header (every request). */
export const withAuditInit: Filter = (state, next) => {
  const given = state.req.headers['audit-id'];
  const id = typeof given === 'string' && given !== '' ? given : randomUUID();
  state.auditID = id;
  state.res.setHeader('Audit-Id', id);
  return next(state);
};

/**
 * Upstream's WithRequestReceivedTimestamp, in the chain only when auditing: the event's
 * requestReceivedTimestamp is when the request arrived, not when authentication finished.
 */
export function withRequestReceivedTimestamp(now: () => number = preciseNow): Filter {
  return (state, next) => {
    state.receivedAt = now();
    return next(state);
  };
}

/**
 * Adds an annotation to the request's audit event, if it is audited; a key keeps its first value.
 * (Deprecated-API and other annotations come through here.)
 */
export function addAuditAnnotation(state: RequestState, key: string, value: string): void {
  state.audit?.annotate(key, value);
}

/** The same for code that holds only the request or response (handlers): nothing unless audited. */
export function addRequestAuditAnnotation(reqOrRes: Request | Response, key: string, value: string): void {
  auditCaptureOf(reqOrRes)?.annotate(key, value);
}

export interface AuditSettings {
  policy: AuditPolicy;
  backend: AuditBackend;
  brand: Brand;
  /** Counts the policy's level per request (apiserver_audit_level_total). */
  metrics?: AuditMetrics;
  /** Epoch milliseconds with a sub-millisecond fraction. */
  now?: () => number;
}

/** The clock with microseconds that upstream's MicroTime shows. */
const preciseNow = () => performance.timeOrigin + performance.now();

export function withAudit(settings: AuditSettings): Filter {
  const { policy, backend, brand } = settings;
  const now = settings.now ?? preciseNow;
  const apiVersion = `${brand.group('audit', true)}/v1`;
  const decisionKey = `${brand.group('authorization', true)}/decision`;
  const reasonKey = `${brand.group('authorization', true)}/reason`;

  /** The authorization filter's outcome, known from the stage after it ran. */
  const annotateAuthorization = (state: RequestState, record: AuditRecord) => {
    if (state.authorizationDecision !== undefined) record.annotate(decisionKey, state.authorizationDecision);
    if (state.authorizationReason !== undefined) record.annotate(reasonKey, state.authorizationReason);
  };
  const noteUser = (state: RequestState, record: AuditRecord, requester: UserInfo | undefined) => {
    if (state.user !== requester && state.user) record.ev.impersonatedUser = state.user;
  };

  return (state, next) => {
    const attrs = attributesOf(state);
    const config = policy.evaluate(attrs);
    settings.metrics?.level(config.level);
    if (config.level === 'None') return next(state);
    const requester = state.user;
    const received = state.receivedAt ?? now();
    const ev: AuditEvent = {
      level: config.level,
      auditID: state.auditID ?? randomUUID(),
      stage: 'RequestReceived',
      requestURI: state.req.url ?? state.path,
      verb: attrs.verb,
      user: requester,
      sourceIPs: sourceIPs(state.req),
      userAgent: headerValue(state.req, 'user-agent'),
      objectRef: objectRefOf(attrs),
      requestReceivedTimestamp: received,
      stageTimestamp: received,
    };
    const record = new AuditRecord(ev, config, backend, apiVersion, now);
    state.audit = record;
    registerCapture(state.req, state.res, record);
    record.emit('RequestReceived');
    if (isLongRunning(state.info))
      onHeaders(state.res, (code) => {
        record.setCode(code);
        annotateAuthorization(state, record);
        noteUser(state, record, requester);
        record.emit('ResponseStarted');
      });

    const complete = () => {
      annotateAuthorization(state, record);
      noteUser(state, record, requester);
      if (ev.responseStatus?.code === undefined) record.setCode(state.res.statusCode);
      record.emit('ResponseComplete');
    };
    const failed = (err: unknown) => {
      annotateAuthorization(state, record);
      noteUser(state, record, requester);
      if (err instanceof StatusError) {
        record.setError(err.toStatus());
        record.emit('ResponseComplete');
      } else {
        // An unexpected failure is what a panic is upstream.
        ev.responseStatus = {
          status: 'Failure',
          reason: 'InternalError',
          message: `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}`,
          code: 500,
        };
        record.emit('Panic');
      }
      throw err;
    };
    let served: Promise<void>;
    try {
      served = next(state);
    } catch (err) {
      served = Promise.reject(err);
    }
    return served.then(complete, failed);
  };
}

/** Who a request is before authentication names anyone: rules naming users or groups do not match it. */
const NOBODY: UserInfo = { name: '', groups: [] };

/**
 * Upstream's WithFailedAuthenticationAudit, just outside authentication: a request refused with
 * 401 is recorded once, at ResponseStarted, with no user and the credentials it tried.
 */
export function withFailedAuthenticationAudit(settings: AuditSettings): Filter {
  const { policy, backend, brand } = settings;
  const now = settings.now ?? preciseNow;
  const apiVersion = `${brand.group('audit', true)}/v1`;
  return (state, next) =>
    next(state).catch((err: unknown) => {
      if (state.user !== undefined || !(err instanceof StatusError) || err.code !== 401) throw err;
      const attrs = attributesOf({ ...state, user: NOBODY });
      const config = policy.evaluate(attrs);
      if (config.level === 'None') throw err;
      const at = now();
      const ev: AuditEvent = {
        level: config.level,
        auditID: state.auditID ?? randomUUID(),
        stage: 'ResponseStarted',
        requestURI: state.req.url ?? state.path,
        verb: attrs.verb,
        user: undefined,
        sourceIPs: sourceIPs(state.req),
        userAgent: headerValue(state.req, 'user-agent'),
        objectRef: objectRefOf(attrs),
        responseStatus: { message: attemptedMethods(state), code: 401 },
        requestReceivedTimestamp: state.receivedAt ?? at,
        stageTimestamp: at,
      };
      new AuditRecord(ev, config, backend, apiVersion, now).emit('ResponseStarted');
      throw err;
    });
}

/** Upstream's getAuthMethods: the kinds of credentials the request carried. */
function attemptedMethods(state: RequestState): string {
  const methods: string[] = [];
  const auth = headerValue(state.req, 'authorization').trim();
  const parts = auth.split(' ');
  if (parts[0].toLowerCase() === 'basic' && parts.length > 1) methods.push('basic');
  if (parts.length > 1 && parts[0].toLowerCase() === 'bearer') methods.push('bearer');
  if ((state.query.get('access_token') ?? '').trim() !== '') methods.push('access_token');
  const socket = state.req.socket as { getPeerCertificate?: () => { raw?: Buffer } };
  if (socket.getPeerCertificate?.()?.raw) methods.push('x509');
  return methods.length > 0 ? `Authentication failed, attempted: ${methods.join(', ')}` : 'Authentication failed, no credentials provided';
}

function objectRefOf(attrs: Attributes): ObjectReference | undefined {
  if (!attrs.isResourceRequest) return undefined;
  const { resource, namespace, name, apiGroup, apiVersion, subresource } = attrs;
  return { resource, namespace, name, apiGroup, apiVersion, subresource };
}

/** Calls back once when the response's headers go out (a watch's ResponseStarted). */
function onHeaders(res: Response, callback: (code: number) => void): void {
  const original = res.writeHead as (...args: unknown[]) => Response;
  let called = false;
  (res as { writeHead: (...args: unknown[]) => Response }).writeHead = function (this: Response, ...args: unknown[]) {
    if (!called) {
      called = true;
      callback(typeof args[0] === 'number' ? args[0] : res.statusCode);
    }
    return original.apply(this, args);
  };
}

function headerValue(req: Request, name: string): string {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : (v ?? '');
}

/** An address as Go prints a net.IP: IPv4-mapped IPv6 addresses as IPv4. */
function ipText(s: string): string | undefined {
  const t = s.trim();
  const plain = t.startsWith('::ffff:') && isIP(t.slice(7)) === 4 ? t.slice(7) : t;
  return isIP(plain) ? plain : undefined;
}

/** Upstream's utilnet.SourceIPs: X-Forwarded-For, then X-Real-Ip, then the peer unless it repeats the last. */
export function sourceIPs(req: Request): string[] {
  const ips: string[] = [];
  const forwarded = headerValue(req, 'x-forwarded-for');
  if (forwarded !== '') {
    for (const part of forwarded.split(',')) {
      const ip = ipText(part);
      if (ip) ips.push(ip);
    }
  }
  const real = ipText(headerValue(req, 'x-real-ip'));
  if (real && !ips.includes(real)) ips.push(real);
  const remote = ipText(req.socket?.remoteAddress ?? '');
  if (remote && ips[ips.length - 1] !== remote) ips.push(remote);
  return ips;
}
