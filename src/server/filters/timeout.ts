/**
 * Upstream's WithRequestDeadline + WithTimeoutForNonLongRunningRequests: a request that is not
 * long-running must answer within --request-timeout (or its shorter `timeout` parameter), else
 * it is answered 504 Timeout and its handler's late writes go nowhere. JavaScript cannot stop
 * the handler; a response already streaming is cut. One timer per request and no other
 * allocation: this runs on every request.
 */
import { parseGoDuration } from '../../machinery/duration.js';
import { badRequest, StatusError } from '../../machinery/status.js';
import { abortResponse } from '../http.js';
import type { Filter } from './chain.js';
import { isLongRunning } from './long-running.js';

/** Upstream's text for a handler that missed its deadline. */
const TIMEOUT_MESSAGE = 'Timeout: request did not complete within requested timeout - context deadline exceeded';

export function withRequestTimeout(requestTimeoutMs: number): Filter {
  return (state, next) => {
    if (requestTimeoutMs <= 0 || isLongRunning(state.info)) return next(state);
    const timeoutMs = requestedTimeoutMs(state.query, requestTimeoutMs);
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (state.res.headersSent) abortResponse(state.res);
        reject(new StatusError(504, 'Timeout', TIMEOUT_MESSAGE, {}));
      }, timeoutMs);
      next(state).then(
        () => {
          clearTimeout(timer);
          resolve();
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  };
}

/** The `timeout` parameter when it is shorter than the server's (0 or longer means the server's). */
function requestedTimeoutMs(query: URLSearchParams, serverMs: number): number {
  const raw = query.get('timeout');
  if (raw === null || raw === '') return serverMs;
  let ns: bigint;
  try {
    ns = parseGoDuration(raw);
  } catch (e) {
    throw badRequest(`invalid timeout specified in the request URL - ${e instanceof Error ? e.message : String(e)}`);
  }
  const ms = Number(ns / 1_000_000n);
  return ns > 0n && ms < serverMs ? Math.max(ms, 1) : serverMs;
}
