/** Small response helpers shared by every handler: JSON/YAML bodies, Status errors, text. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { constants as http2constants, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AsTarget, Encoding } from '../codec/negotiation.js';
import { encodeBody, type EncodedBody } from '../codec/serialize.js';
import { goQuote } from '../machinery/validation.js';
import { internalError, requestEntityTooLarge, StatusError, type Status } from '../machinery/status.js';
import { auditCaptureOf } from './audit/capture.js';

export type Request = IncomingMessage | Http2ServerRequest;
export type Response = ServerResponse | Http2ServerResponse;

/** Largest request body accepted, as upstream's 3 MiB limit for JSON bodies. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** How a response is to be written: negotiated encodings (client order), pretty-printing, brand. */
export interface Output {
  encodings: readonly Encoding[];
  pretty: boolean;
  /** The protobuf media type to answer with when protobuf is chosen. */
  protobufMediaType: string;
  /** The meta kind to answer with instead of the object (Table, PartialObjectMetadata...). */
  as?: AsTarget;
}

/** Compact JSON for responses that precede negotiation (errors, discovery). */
const JSON_OUTPUT: Output = { encodings: ['json'], pretty: false, protobufMediaType: '' };

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
    req.on('end', () => {
      if (failed) return;
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      auditCaptureOf(req)?.requestBody(String(req.headers['content-type'] ?? ''), body);
      resolve(body);
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
    });
  });
}

/** Responses at least this large are gzipped for clients that accept it (upstream's APIResponseCompression threshold). */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/**
 * Responses of a server whose APIResponseCompression or WarningHeaders gate is off (marked once
 * per request by the router, and only then: with the gates on nothing is marked or looked up
 * until a response is large or warns).
 */
const uncompressed = new WeakSet<Request>();
const unwarned = new WeakSet<Response>();

/** APIResponseCompression off: this request's responses are never gzipped. */
export function disableCompression(req: Request): void {
  uncompressed.add(req);
}

/** WarningHeaders off: this response carries no Warning headers (upstream installs no warning recorder). */
export function disableWarnings(res: Response): void {
  unwarned.add(res);
}

/** True when the request's Accept-Encoding lists gzip (with a non-zero q) and the server compresses API responses. */
export function acceptsGzip(req: Request | undefined): boolean {
  if (req !== undefined && uncompressed.has(req)) return false;
  return acceptsGzipEncoding(req);
}

/** True when the request's Accept-Encoding lists gzip (the OpenAPI handler's own gzip ignores the gate, as upstream's). */
export function acceptsGzipEncoding(req: Request | undefined): boolean {
  const header = req?.headers['accept-encoding'];
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [coding, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return coding === 'gzip' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

// The body length of each answered response (before compression), for apiserver_response_sizes:
// headers given to writeHead are not readable back from the response.
const bodySizes = new WeakMap<Response, number>();

/** Records the bytes of a body written in pieces (a streamed list). */
export function recordBodySize(res: Response, bytes: number): void {
  bodySizes.set(res, bytes);
}

/** The length of the body the response was answered with (0 when none was recorded). */
export function bodySize(res: Response): number {
  return bodySizes.get(res) ?? 0;
}

/** Ends a response with a complete body, gzipped when it is large and the client accepts gzip. */
export function writeBody(res: Response, code: number, contentType: string, bytes: Buffer): void {
  bodySizes.set(res, bytes.length);
  auditCaptureOf(res)?.responseBody(contentType, bytes);
  if (bytes.length >= GZIP_THRESHOLD_BYTES && acceptsGzip((res as { req?: Request }).req)) {
    const zipped = gzipSync(bytes);
    res.writeHead(code, { 'content-type': contentType, 'content-encoding': 'gzip', vary: 'Accept-Encoding', 'content-length': zipped.length });
    res.end(zipped);
    return;
  }
  res.writeHead(code, { 'content-type': contentType, 'content-length': bytes.length });
  res.end(bytes);
}

/** Writes a value with a status code in the first negotiated encoding that can carry it. */
export function writeObject(res: Response, code: number, value: unknown, out: Output = JSON_OUTPUT): void {
  auditCaptureOf(res)?.responseObject(value);
  const { bytes, contentType } = encodeBody(value, out.encodings, out.pretty, out.protobufMediaType);
  writeBody(res, code, contentType, bytes);
}

/** Writes a Status for any error; unexpected errors become 500 InternalError (never a crash). */
export function writeError(res: Response, err: unknown, out: Output = JSON_OUTPUT): void {
  const se = err instanceof StatusError ? err : internalError(err);
  if (!(err instanceof StatusError)) console.error('internal error:', err);
  const status: Status = se.toStatus();
  auditCaptureOf(res)?.responseObject(status);
  if (res.headersSent) {
    res.end();
    return;
  }
  const headers: Record<string, string> = {};
  if (se.details?.retryAfterSeconds !== undefined) headers['retry-after'] = String(se.details.retryAfterSeconds);
  // The Status goes out in the client's representation when it can carry it, else JSON.
  let body: EncodedBody;
  try {
    body = encodeBody(status, out.encodings, out.pretty, out.protobufMediaType);
  } catch {
    body = encodeBody(status, ['json'], false, '');
  }
  res.writeHead(se.code, { ...headers, 'content-type': body.contentType, 'content-length': body.bytes.length });
  res.end(body.bytes);
}

/** Upstream's warning recorder limits: past 4096 runes in all, each text is cut to 256 runes. */
const WARNINGS_TOTAL_RUNES = 4 * 1024;
const WARNING_ITEM_RUNES = 256;

interface WarningState {
  /** Each text once, in the order added (replayed cut short once truncating starts). */
  texts: string[];
  seen: Set<string>;
  written: number;
  truncating: boolean;
}

const warningStates = new WeakMap<Response, WarningState>();

const runeCount = (text: string): number => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};
const firstRunes = (text: string, n: number): string => Array.from(text).slice(0, n).join('');
const warningValue = (text: string): string => headerBytes(`299 - ${goQuote(text)}`);

/**
 * Adds a `Warning: 299 - "<text>"` header (upstream's warning recorder: agent "-", each text
 * once), sent with whatever response the handler writes next. As upstream, the headers stay
 * bounded whatever a request provokes (many unknown fields, a huge field name): once the texts
 * pass 4096 runes, every text is cut to 256 runes, and texts past the limit again are dropped.
 */
export function addWarning(res: Response, text: string): void {
  if (text === '' || unwarned.has(res)) return;
  let state = warningStates.get(res);
  if (state === undefined) warningStates.set(res, (state = { texts: [], seen: new Set(), written: 0, truncating: false }));
  if (state.truncating && state.written >= WARNINGS_TOTAL_RUNES) return;
  if (state.seen.has(text)) return;
  state.seen.add(text);
  state.texts.push(text);
  let runes = runeCount(text);
  let shown = text;
  if (state.truncating && runes > WARNING_ITEM_RUNES) {
    shown = firstRunes(text, WARNING_ITEM_RUNES);
    runes = WARNING_ITEM_RUNES;
  }
  if (state.written + runes <= WARNINGS_TOTAL_RUNES || state.truncating) {
    state.written += runes;
    appendWarning(res, warningValue(shown));
    return;
  }
  // Over the limit for the first time: start again with every text so far cut short.
  state.truncating = true;
  state.written = 0;
  res.removeHeader('warning');
  for (const t of state.texts) {
    const cut = runeCount(t) > WARNING_ITEM_RUNES ? firstRunes(t, WARNING_ITEM_RUNES) : t;
    state.written += runeCount(cut);
    appendWarning(res, warningValue(cut));
  }
}

function appendWarning(res: Response, value: string): void {
  const current = res.getHeader('warning');
  const values = Array.isArray(current) ? current : current === undefined ? [] : [String(current)];
  res.setHeader('warning', [...values, value]);
}

/**
 * A header value whose text goes on the wire as UTF-8, as Go writes header bytes: Node (HTTP/1.1
 * and HTTP/2) refuses characters past U+00FF and writes the rest as Latin-1 bytes, so each UTF-8
 * byte is handed over as the Latin-1 character of that byte.
 */
export function headerBytes(text: string): string {
  // ASCII is the same either way; only text with other characters needs the round trip.
  return /^[\t -~]*$/.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}

/** Writes plain text (health endpoints). */
export function writeText(res: Response, code: number, text: string): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Cuts a response whose headers are out (upstream panics with ErrAbortHandler): the client sees a reset, not a truncated success. */
export function abortResponse(res: Response): void {
  if ('stream' in res && res.stream) res.stream.close(http2constants.NGHTTP2_INTERNAL_ERROR);
  else (res as ServerResponse).destroy();
}
