/**
 * Upstream's aggregator proxy handler (handler_proxy.go): a request for a remote APIService's
 * group version, already authenticated and authorized here, is sent to the APIService's server
 * over TLS with orch's proxy client certificate and the caller's identity in the front-proxy
 * headers (the client's own credentials, impersonation and identity headers are not passed
 * on). Bodies stream both ways, upgrades (exec, WebSocket watches) are piped, and an APIService
 * that is not Available, or whose service cannot be reached, is answered 503 in upstream's
 * plain-text words.
 */
import https from 'node:https';
import tls from 'node:tls';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { RequestState } from '../filters/chain.js';
import { writeText } from '../http.js';
import { forwardedHeaders, NOT_FORWARDED } from '../handlers/connect.js';
import { DIAL_TIMEOUT_MS, isUpgradeRequest, proxyUpgrade } from '../upgrade-proxy.js';
import { goDialError } from '../go-net-error.js';
import type { APIServiceView } from './apiservice.js';
import { type Backend, type BackendTransport, goTransportError } from './backend.js';
import { identityHeaders } from './identity-headers.js';

/** http.Error's answer: the text and a newline, as plain text. */
function proxyError(state: RequestState, code: number, text: string): void {
  writeText(state.res, code, `${text}\n`);
}

/** The headers sent to the backend: the client's own, minus anything that could claim an identity, plus the caller's. */
function backendHeaders(state: RequestState, host: string): Record<string, string | string[]> {
  const headers = forwardedHeaders(state.req.headers as IncomingHttpHeaders, host);
  for (const k of Object.keys(headers)) if (k.startsWith('x-remote-')) delete headers[k];
  return { ...headers, ...identityHeaders(state.user ?? { name: '', groups: [] }) };
}

function dialError(err: unknown, url: URL): string {
  return goTransportError(err) ?? goDialError(err, url.hostname.replace(/^\[|\]$/g, ''), url.host);
}

/** Proxies the request to view's server; answers every failure itself. */
export async function proxyToAPIService(state: RequestState, view: APIServiceView, transport: BackendTransport): Promise<void> {
  if (!view.available) return proxyError(state, 503, 'service unavailable');
  if (state.user === undefined) return proxyError(state, 500, 'missing user');
  let backend: Backend;
  try {
    backend = await transport.resolve(view);
  } catch {
    return proxyError(state, 503, 'service unavailable');
  }
  const rawUrl = state.req.url ?? '/';
  const query = rawUrl.indexOf('?');
  const url = new URL(`${state.path}${query < 0 ? '' : rawUrl.slice(query)}`, backend.origin);
  const headers = backendHeaders(state, url.host);
  const { req } = state;
  if (isUpgradeRequest(req)) {
    const port = Number(url.port || 443);
    return proxyUpgrade(
      req,
      state.res as ServerResponse,
      { url, headers, dial: (connected) => tls.connect({ ...backend.tls, host: url.hostname.replace(/^\[|\]$/g, ''), port }, connected) },
      (err) => new Error(dialError(err, url)),
    ).catch((err: Error) => proxyError(state, 503, err.message));
  }
  return forward(state, url, headers, backend);
}

/** A plain request: the body streams to the backend, its answer streams back. */
function forward(state: RequestState, url: URL, headers: Record<string, string | string[]>, backend: Backend): Promise<void> {
  const { req, res } = state;
  return new Promise((resolve) => {
    let finished = false;
    const upstream = https.request(url, { ...backend.tls, agent: backend.agent, method: req.method, headers }, (answer) => {
      clearTimeout(dialTimer);
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !NOT_FORWARDED.has(k)) out[k] = v;
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res as NodeJS.WritableStream);
      answer.on('end', () => {
        finished = true;
        resolve();
      });
      answer.on('error', () => {
        res.destroy();
        resolve();
      });
    });
    // Only the connection is bounded here; the request's own deadline (or a watch's) bounds the rest.
    const dialTimer = setTimeout(() => upstream.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })), DIAL_TIMEOUT_MS);
    upstream.on('socket', (socket) => {
      if (!socket.connecting) clearTimeout(dialTimer);
      else socket.once('secureConnect', () => clearTimeout(dialTimer));
    });
    upstream.on('error', (err) => {
      clearTimeout(dialTimer);
      // After the client left there is no one to answer.
      if (!clientGone) {
        if (res.headersSent) res.destroy();
        else proxyError(state, 503, dialError(err, url));
      }
      finished = true;
      resolve();
    });
    // The client went away: so does the backend request (a watch ends on both sides).
    let clientGone = false;
    res.on('close', () => {
      if (finished) return;
      clientGone = true;
      upstream.destroy();
    });
    req.pipe(upstream);
  });
}
