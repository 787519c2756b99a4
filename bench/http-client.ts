/** One-off HTTPS requests for benchmark setup (pre-creating objects, polling /readyz). */
import { request } from 'node:https';
import type { TlsMaterial } from './load.js';

export interface Reply {
  status: number;
  body: string;
}

/** Sends one request on a fresh connection; rejects only on transport errors or timeout. */
export function requestOnce(
  url: string,
  opts: { method?: string; body?: string; tls?: TlsMaterial; insecure?: boolean; timeoutMs?: number; authorization?: string },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { accept: 'application/json' };
    if (opts.authorization !== undefined) headers.authorization = opts.authorization;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(opts.body);
    }
    const req = request(
      url,
      {
        method: opts.method ?? 'GET',
        headers,
        agent: false,
        ca: opts.tls?.ca,
        cert: opts.tls?.cert,
        key: opts.tls?.key,
        rejectUnauthorized: !opts.insecure,
        timeout: opts.timeoutMs ?? 5000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout: ${url}`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}
