/**
 * A minimal keep-alive HTTP/1.1 client over one node:tls socket, for the load generator.
 * Why not node:https: on this 2-core machine its per-request cost (ClientRequest,
 * IncomingMessage, header objects) made the generator, not the trivial server, the
 * bottleneck, which inflates every ratio against that baseline. This client writes
 * precomputed bytes and parses only the status line, Content-Length and chunked framing.
 */
import { connect, type TLSSocket } from 'node:tls';

export interface RawTarget {
  host: string;
  port: number;
  ca: string;
  cert?: string;
  key?: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');

/** One connection; `send` must not be called again before its previous promise settled. */
export class RawConnection {
  /** The open socket, once its handshake is done. */
  private socket: TLSSocket | undefined;
  /** The socket being opened or in use: events of any older socket are ignored. */
  private current: TLSSocket | undefined;
  private connecting: Promise<TLSSocket> | undefined;
  private buf: Buffer = Buffer.alloc(0);
  private pending: { resolve: (status: number) => void; reject: (err: Error) => void } | undefined;
  /** Raw bytes of the last complete response (a view, not a copy), for error reports. */
  lastResponse: Buffer = Buffer.alloc(0);

  constructor(private readonly target: RawTarget) {}

  /** Sends one request (already-encoded bytes) and resolves with the status once the body is read. */
  async send(request: Buffer): Promise<number> {
    const socket = this.socket ?? (await this.open());
    return new Promise<number>((resolve, reject) => {
      this.pending = { resolve, reject };
      socket.write(request);
    });
  }

  close(): void {
    this.current?.destroy();
    this.current = undefined;
    this.socket = undefined;
    this.connecting = undefined;
    this.buf = Buffer.alloc(0);
  }

  private open(): Promise<TLSSocket> {
    this.connecting ??= new Promise<TLSSocket>((resolve, reject) => {
      const { host, port, ca, cert, key } = this.target;
      const socket = connect({ host, port, ca, cert, key, ALPNProtocols: ['http/1.1'] });
      this.current = socket;
      socket.setNoDelay(true);
      socket.once('secureConnect', () => {
        this.socket = socket;
        this.connecting = undefined;
        resolve(socket);
      });
      socket.on('data', (chunk: Buffer) => {
        if (this.current === socket) this.onData(chunk);
      });
      const fail = (err: Error) => {
        reject(err);
        if (this.current !== socket) return;
        this.current = undefined;
        this.socket = undefined;
        this.connecting = undefined;
        this.buf = Buffer.alloc(0);
        const pending = this.pending;
        this.pending = undefined;
        pending?.reject(err);
      };
      socket.once('error', fail);
      socket.once('close', () => fail(new Error('connection closed')));
    });
    return this.connecting;
  }

  private onData(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    const parsed = parseResponse(this.buf);
    if (!parsed) return;
    this.lastResponse = this.buf.subarray(0, parsed.length);
    this.buf = this.buf.subarray(parsed.length);
    const pending = this.pending;
    this.pending = undefined;
    // The server asked to close: drop this socket so the next send opens a fresh one.
    if (parsed.close) this.close();
    pending?.resolve(parsed.status);
  }
}

/** Encodes a request once, so the hot loop only writes bytes. */
export function encodeRequest(method: string, path: string, host: string, body?: string, authorization?: string): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, 'Accept: application/json'];
  if (authorization !== undefined) lines.push(`Authorization: ${authorization}`);
  if (body !== undefined) {
    lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body ?? ''}`);
}

/** The first complete response in `buf`: its status and total byte length, or undefined if incomplete. */
export function parseResponse(buf: Buffer): { status: number; length: number; close: boolean } | undefined {
  const headerEnd = buf.indexOf(HEADER_END);
  if (headerEnd < 0) return undefined;
  const head = buf.toString('latin1', 0, headerEnd).toLowerCase();
  const status = Number(head.slice(9, 12));
  const close = /\r\nconnection:\s*close/.test(head);
  const bodyStart = headerEnd + 4;
  // 1xx, 204 and 304 have no body whatever the headers say.
  if (status < 200 || status === 204 || status === 304) return { status, length: bodyStart, close };
  const lengthMatch = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (lengthMatch) {
    const length = bodyStart + Number(lengthMatch[1]);
    return buf.length >= length ? { status, length, close } : undefined;
  }
  if (/\r\ntransfer-encoding:[^\r]*chunked/.test(head)) {
    const end = chunkedEnd(buf, bodyStart);
    return end < 0 ? undefined : { status, length: end, close };
  }
  throw new Error(`response without length framing: ${head.split('\r\n')[0]}`);
}

/** Offset just past the last chunk (and empty trailer) of a chunked body, or -1 if incomplete. */
function chunkedEnd(buf: Buffer, start: number): number {
  let at = start;
  for (;;) {
    const lineEnd = buf.indexOf(CRLF, at);
    if (lineEnd < 0) return -1;
    const size = Number.parseInt(buf.toString('latin1', at, lineEnd).split(';')[0] ?? '', 16);
    if (Number.isNaN(size)) throw new Error('bad chunk size');
    if (size === 0) {
      // Trailers, if any, end with an empty line.
      const trailerEnd = buf.indexOf(CRLF, lineEnd + 2);
      if (trailerEnd < 0) return -1;
      if (trailerEnd === lineEnd + 2) return trailerEnd + 2;
      const end = buf.indexOf(HEADER_END, lineEnd);
      return end < 0 ? -1 : end + 4;
    }
    at = lineEnd + 2 + size + 2;
    if (at > buf.length) return -1;
  }
}
