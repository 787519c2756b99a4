/**
 * Upstream's httplog (WithHTTPLogging): at -v=3 and above, one line per request once it is
 * answered, `"HTTP" verb="GET" URI="/api/v1/..." latency="1.2ms" userAgent="..." audit-ID=""
 * srcIP="127.0.0.1:50000" resp=200`. Outside panic recovery, so every answer is logged with its
 * status, 401s and 403s included. Credentials never reach the line: only the method, the URI
 * (with any token-carrying query parameter masked), the user agent and the peer are logged,
 * never a header that authenticates. Below -v=3 the filter is one comparison.
 */
import { formatDurationMs } from '../../machinery/duration.js';
import { klog } from '../../machinery/klog.js';
import type { Request } from '../http.js';
import type { Filter, RequestState } from './chain.js';

/** Query parameters that carry credentials in some clients (WebSocket and OAuth-style URLs). */
const SECRET_PARAMS = /([?&](?:access_token|token|id_token)=)[^&]*/gi;

export const withHTTPLogging: Filter = (state, next) => {
  if (!klog.enabled(3)) return next(state);
  const log = () => logRequest(state);
  return next(state).then(log, (err: unknown) => {
    log();
    throw err;
  });
};

function logRequest(state: RequestState): void {
  const { req, res } = state;
  klog.v(3, 'HTTP', {
    verb: req.method ?? '',
    URI: (req.url ?? '').replace(SECRET_PARAMS, '$1[redacted]'),
    latency: formatDurationMs(performance.now() - state.received),
    userAgent: userAgentOf(req),
    'audit-ID': String(res.getHeader('audit-id') ?? ''),
    srcIP: remoteAddr(req),
    resp: res.statusCode,
  });
}

function userAgentOf(req: Request): string {
  const ua = req.headers['user-agent'];
  return typeof ua === 'string' ? ua : '';
}

/** Go's RemoteAddr: host:port, IPv6 in brackets. */
function remoteAddr(req: Request): string {
  const socket = req.socket;
  const host = socket?.remoteAddress ?? '';
  const port = socket?.remotePort ?? 0;
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
