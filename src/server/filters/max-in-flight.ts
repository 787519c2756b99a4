/**
 * Upstream's WithMaxInFlightLimit: at most N read-only and M mutating requests at once; the
 * next one is answered 429 with Retry-After at once, never queued. Long-running requests
 * (watches) and members of system:masters are not counted (upstream: a super-admin always gets
 * an answer). A limit of 0 means no limit. API Priority and Fairness replaces this filter when
 * its gate is on.
 */
import type { Response } from '../http.js';
import type { Filter } from './chain.js';
import { isLongRunning } from './long-running.js';

const NON_MUTATING_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'watch']);

/** The header and body upstream answers with (http.Error: plain text). */
const RETRY_AFTER_SECONDS = '1';
const TOO_MANY_REQUESTS = 'Too many requests, please try again later.\n';

export interface InFlightLimits {
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
}

export type RequestKind = 'readOnly' | 'mutating';

/** Upstream's split of requests for the in-flight limits and apiserver_dropped_requests_total. */
export function requestKind(verb: string): RequestKind {
  return NON_MUTATING_VERBS.has(verb) ? 'readOnly' : 'mutating';
}

/**
 * The limit's counts, shared with the metrics: requests in flight by kind, the highest count
 * since the watermarks were last read (upstream reports the maximum of the last second, not
 * a moment's count), and a hook for each rejection.
 */
export class InFlightCounts {
  readonly current = { readOnly: 0, mutating: 0 };
  private readonly high = { readOnly: 0, mutating: 0 };
  constructor(readonly onDropped: (kind: RequestKind) => void = () => {}) {}

  enter(kind: RequestKind): void {
    if (++this.current[kind] > this.high[kind]) this.high[kind] = this.current[kind];
  }

  leave(kind: RequestKind): void {
    this.current[kind]--;
  }

  /** The highest counts since the last call; the watermarks start again from the current counts. */
  watermarks(): { readOnly: number; mutating: number } {
    const out = { ...this.high };
    this.high.readOnly = this.current.readOnly;
    this.high.mutating = this.current.mutating;
    return out;
  }
}

export function withMaxInFlight(limits: InFlightLimits, counts = new InFlightCounts()): Filter {
  const inFlight = counts.current;
  return (state, next) => {
    if (isLongRunning(state.info) || state.user?.groups.includes('system:masters')) return next(state);
    const kind = requestKind(state.info.verb);
    const limit = kind === 'readOnly' ? limits.maxRequestsInflight : limits.maxMutatingRequestsInflight;
    if (limit <= 0) return next(state);
    if (inFlight[kind] >= limit) {
      counts.onDropped(kind);
      tooManyRequests(state.res);
      return Promise.resolve();
    }
    counts.enter(kind);
    const release = () => counts.leave(kind);
    try {
      return next(state).finally(release);
    } catch (err) {
      release();
      throw err;
    }
  };
}

/** Upstream's 429 of the in-flight limits and of API Priority and Fairness (http.Error with Retry-After: 1). */
export function tooManyRequests(res: Response): void {
  res.writeHead(429, {
    'retry-after': RETRY_AFTER_SECONDS,
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(TOO_MANY_REQUESTS),
  });
  res.end(TOO_MANY_REQUESTS);
}
