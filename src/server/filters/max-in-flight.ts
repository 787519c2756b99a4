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

export function withMaxInFlight(limits: InFlightLimits): Filter {
  const inFlight = { readOnly: 0, mutating: 0 };
  return (state, next) => {
    if (isLongRunning(state.info) || state.user?.groups.includes('system:masters')) return next(state);
    const kind = NON_MUTATING_VERBS.has(state.info.verb) ? 'readOnly' : 'mutating';
    const limit = kind === 'readOnly' ? limits.maxRequestsInflight : limits.maxMutatingRequestsInflight;
    if (limit <= 0) return next(state);
    if (inFlight[kind] >= limit) {
      tooManyRequests(state.res);
      return Promise.resolve();
    }
    inFlight[kind]++;
    const release = () => {
      inFlight[kind]--;
    };
    try {
      return next(state).finally(release);
    } catch (err) {
      release();
      throw err;
    }
  };
}

function tooManyRequests(res: Response): void {
  res.writeHead(429, {
    'retry-after': RETRY_AFTER_SECONDS,
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(TOO_MANY_REQUESTS),
  });
  res.end(TOO_MANY_REQUESTS);
}
