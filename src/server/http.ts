/** Small response helpers shared by every handler: JSON/YAML bodies, Status errors, text. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { stringify as toYaml } from 'yaml';
import { internalError, requestEntityTooLarge, StatusError, type Status } from '../machinery/status.js';

export type Request = IncomingMessage | Http2ServerRequest;
export type Response = ServerResponse | Http2ServerResponse;

/** Largest request body accepted, as upstream's 3 MiB limit for JSON bodies. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export type Encoding = 'json' | 'yaml';

/** Reads the whole body, or 413 once it passes MAX_BODY_BYTES. */
export function readBody(req: Request): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      reject(requestEntityTooLarge(MAX_BODY_BYTES));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        reject(requestEntityTooLarge(MAX_BODY_BYTES));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => { if (!failed) resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)); });
    req.on('error', (e) => { if (!failed) reject(e); });
  });
}

/** Serializes a value for the wire in the negotiated encoding. */
export function serialize(value: unknown, encoding: Encoding, pretty: boolean): { body: string; contentType: string } {
  if (encoding === 'yaml') return { body: toYaml(value), contentType: 'application/yaml' };
  return { body: pretty ? `${JSON.stringify(value, null, 2)}\n` : JSON.stringify(value), contentType: 'application/json' };
}

/** Writes a value with a status code. */
export function writeObject(res: Response, code: number, value: unknown, encoding: Encoding = 'json', pretty = false): void {
  const { body, contentType } = serialize(value, encoding, pretty);
  res.writeHead(code, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Writes a Status for any error; unexpected errors become 500 InternalError (never a crash). */
export function writeError(res: Response, err: unknown, encoding: Encoding = 'json'): void {
  const se = err instanceof StatusError ? err : internalError(err);
  if (!(err instanceof StatusError)) console.error('internal error:', err);
  const status: Status = se.toStatus();
  if (res.headersSent) {
    res.end();
    return;
  }
  const headers: Record<string, string> = {};
  if (se.details?.retryAfterSeconds !== undefined) headers['retry-after'] = String(se.details.retryAfterSeconds);
  const { body, contentType } = serialize(status, encoding, false);
  res.writeHead(se.code, { ...headers, 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Writes plain text (health endpoints). */
export function writeText(res: Response, code: number, text: string): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
