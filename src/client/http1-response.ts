/**
 * HTTP/1.1 response framing (RFC 9112 §6): where a response in a byte stream ends, from its
 * status, Content-Length or chunked transfer coding, and the body with the chunk framing
 * removed. Shared by the REST client's connection pool and the benchmarks' raw client.
 */

const HEADER_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

export interface ResponseFrame {
  status: number;
  /** Header fields, names lower-cased; a repeated field keeps its last value. */
  headers: Map<string, string>;
  /** Offset of the body's first byte. */
  bodyStart: number;
  /** Offset just past the response (its last chunk and trailers, when chunked). */
  end: number;
  chunked: boolean;
  /** The server will close the connection after this response. */
  close: boolean;
}

/**
 * The first complete response in `buf`, or undefined while it is incomplete. A response framed
 * by the connection's end (neither length nor chunked) is complete only when `ended` is true.
 * Throws on a malformed status line or chunk size: the connection cannot be trusted after it.
 */
export function frameResponse(buf: Buffer, ended = false, headRequest = false): ResponseFrame | undefined {
  const head = parseHead(buf);
  if (head === undefined) return undefined;
  const { status, headers, bodyStart, close } = head;
  // 1xx, 204, 304 and answers to HEAD have no body whatever the headers say.
  if (headRequest || status < 200 || status === 204 || status === 304) return { status, headers, bodyStart, end: bodyStart, chunked: false, close };
  if (head.chunked) {
    const end = chunkedEnd(buf, bodyStart);
    return end < 0 ? undefined : { status, headers, bodyStart, end, chunked: true, close };
  }
  if (head.length !== undefined) {
    if (!/^\d+$/.test(head.length)) throw new Error(`malformed Content-Length: ${JSON.stringify(head.length)}`);
    const end = bodyStart + Number(head.length);
    return buf.length >= end ? { status, headers, bodyStart, end, chunked: false, close } : undefined;
  }
  // Framed by the end of the connection.
  return ended ? { status, headers, bodyStart, end: buf.length, chunked: false, close: true } : undefined;
}

/**
 * For a response frameResponse found incomplete: how it ends, so that a reader collecting its
 * bytes need not try again on every packet. `length` when its Content-Length says where;
 * `chunked` when only its last chunk will tell; undefined while the head is incomplete or the
 * connection's end frames it.
 */
export function awaitedEnd(buf: Buffer): { length: number } | 'chunked' | undefined {
  const head = parseHead(buf);
  if (head === undefined) return undefined;
  if (head.chunked) return 'chunked';
  // A malformed length: framing on the next packet throws.
  return head.length === undefined || !/^\d+$/.test(head.length) ? undefined : { length: head.bodyStart + Number(head.length) };
}

interface Head {
  status: number;
  headers: Map<string, string>;
  bodyStart: number;
  close: boolean;
  chunked: boolean;
  /** Content-Length as sent, when given (and not chunked). */
  length?: string;
}

/** The status line and header fields at the start of buf; undefined until they are complete. */
function parseHead(buf: Buffer): Head | undefined {
  const headerEnd = buf.indexOf(HEADER_END);
  if (headerEnd < 0) return undefined;
  const lines = buf.toString('latin1', 0, headerEnd).split('\r\n');
  const statusLine = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (statusLine === null) throw new Error(`malformed HTTP status line: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`);
  const status = Number(statusLine[1]);
  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(':');
    if (colon > 0) headers.set(lines[i].slice(0, colon).trim().toLowerCase(), lines[i].slice(colon + 1).trim());
  }
  const close = /(^|,)\s*close\s*(,|$)/i.test(headers.get('connection') ?? '') || lines[0].startsWith('HTTP/1.0');
  const head: Head = { status, headers, bodyStart: headerEnd + 4, close, chunked: /chunked\s*$/i.test(headers.get('transfer-encoding') ?? '') };
  if (!head.chunked) head.length = headers.get('content-length');
  return head;
}

/** The body of a framed response, chunk framing removed. */
export function responseBody(buf: Buffer, f: ResponseFrame): Buffer {
  if (!f.chunked) return buf.subarray(f.bodyStart, f.end);
  const parts: Buffer[] = [];
  let at = f.bodyStart;
  for (;;) {
    const lineEnd = buf.indexOf(CRLF, at);
    const size = chunkSize(buf, at, lineEnd);
    if (size === 0) return parts.length === 1 ? parts[0] : Buffer.concat(parts);
    parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

function chunkSize(buf: Buffer, at: number, lineEnd: number): number {
  const text = buf.toString('latin1', at, lineEnd).split(';')[0]?.trim() ?? '';
  if (!/^[0-9a-fA-F]+$/.test(text)) throw new Error(`malformed chunk size: ${JSON.stringify(text.slice(0, 20))}`);
  return Number.parseInt(text, 16);
}

/** Offset just past the last chunk (and trailers) of a chunked body, or -1 if incomplete. */
function chunkedEnd(buf: Buffer, start: number): number {
  let at = start;
  for (;;) {
    const lineEnd = buf.indexOf(CRLF, at);
    if (lineEnd < 0) return -1;
    const size = chunkSize(buf, at, lineEnd);
    if (size === 0) {
      // Trailers, if any, end with an empty line.
      if (buf.length < lineEnd + 4) return -1;
      if (buf[lineEnd + 2] === 0x0d && buf[lineEnd + 3] === 0x0a) return lineEnd + 4;
      const end = buf.indexOf(HEADER_END, lineEnd);
      return end < 0 ? -1 : end + 4;
    }
    at = lineEnd + 2 + size + 2;
    if (at > buf.length) return -1;
  }
}
