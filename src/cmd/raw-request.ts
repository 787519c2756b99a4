/**
 * The embedded control plane's raw `request()`: one HTTPS call as the admin, answered with the
 * status, headers and body as sent, for tests that assert on exactly what the server said.
 */
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { RawRequestOptions, RawResponse } from './control-plane-types.js';

export interface AdminTls {
  url: string;
  caPem: string;
  certPem: string;
  keyPem: string;
}

/** Content types by verb when the caller names none: JSON, and a merge patch for PATCH (what `kubectl patch` sends by default for custom objects). */
const defaultContentType = (method: string) => (method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');

/** A request function over one keep-alive agent; `close()` ends its idle sockets so no handle outlives the control plane. */
export function rawRequester(tls: AdminTls): { request: (method: string, path: string, options?: RawRequestOptions) => Promise<RawResponse>; close(): void } {
  const agent = new https.Agent({ keepAlive: true, ca: tls.caPem, cert: tls.certPem, key: tls.keyPem });
  const base = new URL(tls.url);
  const request = (method: string, path: string, options: RawRequestOptions = {}): Promise<RawResponse> => {
    const verb = method.toUpperCase();
    const body = options.body;
    const payload =
      body === undefined ? undefined : typeof body === 'string' || body instanceof Uint8Array ? Buffer.from(body) : Buffer.from(JSON.stringify(body));
    // Header names are case-insensitive: the caller's spelling must replace the defaults, not sit beside them.
    const headers = new Map<string, string | number>([['accept', 'application/json']]);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name.toLowerCase(), value);
    if (payload !== undefined) {
      if (!headers.has('content-type')) headers.set('content-type', defaultContentType(verb));
      headers.set('content-length', payload.length);
    }
    return new Promise((resolve, reject) => {
      const req = https.request(
        { agent, host: base.hostname, port: base.port, method: verb, path, headers: Object.fromEntries(headers), signal: options.signal },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => resolve(rawResponse(res.statusCode ?? 0, res.headers, Buffer.concat(chunks))));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  };
  return { request, close: () => agent.destroy() };
}

function rawResponse(status: number, headers: IncomingHttpHeaders, bytes: Buffer): RawResponse {
  const text = bytes.toString('utf8');
  return {
    status,
    headers,
    body: text,
    json<T = unknown>(): T {
      return JSON.parse(text) as T;
    },
  };
}
