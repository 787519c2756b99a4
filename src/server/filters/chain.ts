/**
 * The request chain's shape: each filter is one small function over the request's state that
 * either answers (throws or rejects with a StatusError, or writes) or calls the next. Filters
 * are plain functions returning the next one's promise, not async functions: every request
 * passes all of them, and each async layer would cost a promise and a microtask turn. The order is declared once,
 * in server/router.ts; adding a filter is one line there.
 */
import type { UserInfo } from '../../machinery/user.js';
import type { Request, Response } from '../http.js';
import type { RequestInfo } from '../request-info.js';
import type { AuditRecord } from '../audit/record.js';

/** What the filters learn of a request, in the order they learn it. */
export interface RequestState {
  req: Request;
  res: Response;
  /** The path without the query, and the parsed query. */
  path: string;
  query: URLSearchParams;
  /** Set by the request-info filter (first). */
  info: RequestInfo;
  /** performance.now() when the request reached the chain (upstream's request-received timestamp). */
  received: number;
  /** Set by the authentication filter. */
  user?: UserInfo;
  /** Set by the audit-init filter: the request's audit ID (its `Audit-Id` response header). */
  auditID?: string;
  /** Set when auditing, as the request arrives: epoch milliseconds with a fraction. */
  receivedAt?: number;
  /** Set by the audit filter when the policy records this request; what others annotate. */
  audit?: AuditRecord;
  /** Set by the authorization filter, for audit: upstream's decision (`allow`/`forbid`) and reason. */
  authorizationDecision?: 'allow' | 'forbid';
  authorizationReason?: string;
}

export type Handler = (state: RequestState) => Promise<void>;
export type Filter = (state: RequestState, next: Handler) => Promise<void>;

/** Composes filters, first outermost, around the final handler. */
export function buildChain(filters: readonly Filter[], handler: Handler): Handler {
  let next = handler;
  for (let i = filters.length - 1; i >= 0; i--) {
    const filter = filters[i];
    const inner = next;
    next = (state) => filter(state, inner);
  }
  return next;
}
