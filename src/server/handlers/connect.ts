/**
 * The connect subresources (upstream's rest.Connecter with its upgrade-aware proxy): pods/log
 * streams the node agent's answer; exec, attach and portforward must be upgrades (SPDY or
 * WebSocket), whose bytes are piped both ways once the backend accepts; proxy forwards any
 * method to the pod, node or service endpoint. A backend that cannot be reached is answered
 * with upstream's texts: `Get "<url>": dial tcp ...` for logs, `error dialing backend: ...`
 * for upgrades, 503 `error trying to reach service: ...` for proxies.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import net from 'node:net';
import { badRequest, serviceUnavailable, StatusError } from '../../machinery/status.js';
import type { ConnectLocation } from '../../registry/capabilities.js';
import { goDialError } from '../go-net-error.js';
import { DIAL_TIMEOUT_MS, isUpgradeRequest, proxyUpgrade } from '../upgrade-proxy.js';
import type { ResourceRequest } from './resource-request.js';

const STREAMING = new Set(['exec', 'attach', 'portforward']);
/** Hop-by-hop headers (RFC 7230) and the client's own credentials are not forwarded. */
export const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'authorization',
]);

function plainError(message: string): StatusError {
  return new StatusError(500, '', message);
}

/** The client's headers a backend may see: no hop-by-hop ones, credentials, impersonation or HTTP/2 pseudo-headers. */
export function forwardedHeaders(headers: IncomingHttpHeaders, host: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = { host };
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || NOT_FORWARDED.has(k) || k.startsWith('impersonate-') || k.startsWith(':')) continue;
    out[k] = v;
  }
  return out;
}

export async function handleConnect(r: ResourceRequest): Promise<void> {
  const connecter = r.scope.capabilities.connecter;
  if (!connecter) throw new Error(`${r.scope.info.plural}/${r.subresource} routed a connect without a Connecter`);
  const rawPath = r.info.parts.slice(3).join('/');
  const trailing = r.info.path.endsWith('/') && rawPath !== '' ? '/' : '';
  const path = rawPath === '' ? (r.info.path.endsWith('/') ? '/' : '') : `${rawPath}${trailing}`;
  const loc = await connecter.location(r.ctx, r.namespace, r.name, path, r.query);
  const res = r.res as ServerResponse;
  if (!loc.url) {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end();
    return;
  }
  if (isUpgradeRequest(r.req) && r.subresource !== 'log') return upgrade(r.req, res, loc, loc.url);
  if (STREAMING.has(r.subresource)) throw badRequest('Upgrade request required');
  if (r.subresource === 'proxy' && loc.url.pathname === '/' && path === '' && (r.req.method === 'GET' || r.req.method === 'HEAD')) {
    // Upstream's redirect of an empty proxied path to one ending in '/' (issue 4958).
    const search = new URL(r.req.url ?? '/', 'https://x').search;
    res.writeHead(301, { location: `${r.info.path}/${search}` });
    res.end();
    return;
  }
  return forward(r, res, loc.url);
}

/** A plain request to the backend, its answer streamed back. */
function forward(r: ResourceRequest, res: ServerResponse, url: URL): Promise<void> {
  const secure = url.protocol === 'https:';
  const port = url.port || (secure ? '443' : '80');
  const hostPort = `${url.hostname}:${port}`;
  return new Promise((resolve, reject) => {
    const upstream = (secure ? https : http).request(
      url,
      {
        method: r.subresource === 'log' ? 'GET' : r.req.method,
        headers: forwardedHeaders(r.req.headers, url.host),
        // No CA for node agents is configured: upstream's default without --kubelet-certificate-authority.
        rejectUnauthorized: false,
        timeout: DIAL_TIMEOUT_MS,
      },
      (answer) => {
        const headers: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !NOT_FORWARDED.has(k)) headers[k] = v;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
        answer.on('end', resolve);
        answer.on('error', () => {
          res.destroy();
          resolve();
        });
      },
    );
    upstream.on('timeout', () => upstream.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })));
    upstream.on('error', (err) => {
      if (res.headersSent) {
        res.destroy();
        resolve();
        return;
      }
      const dial = goDialError(err, url.hostname, hostPort);
      reject(r.subresource === 'log' ? plainError(`Get ${JSON.stringify(url.href)}: ${dial}`) : serviceUnavailable(`error trying to reach service: ${dial}`));
    });
    res.on('close', () => upstream.destroy());
    if (r.subresource === 'log') upstream.end();
    else (r.req as IncomingMessage).pipe(upstream);
  });
}

/** An upgrade (exec, attach, portforward, a proxied WebSocket): the request goes to the backend and the bytes are piped both ways. */
function upgrade(req: IncomingMessage, res: ServerResponse, loc: ConnectLocation, url: URL): Promise<void> {
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const hostPort = `${url.hostname}:${port}`;
  return proxyUpgrade(
    req,
    res,
    {
      url,
      headers: forwardedHeaders(req.headers, url.host),
      dial: (connected) =>
        secure
          ? tls.connect({ host: url.hostname, port, rejectUnauthorized: false, servername: net.isIP(url.hostname) ? undefined : url.hostname }, connected)
          : net.connect({ host: url.hostname, port }, connected),
    },
    (err) => {
      const dial = goDialError(err, url.hostname, hostPort);
      return loc.via === 'kubelet' ? plainError(`error dialing backend: ${dial}`) : serviceUnavailable(`error trying to reach service: ${dial}`);
    },
  );
}
