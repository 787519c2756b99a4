/**
 * Keep-alive HTTP/1.1 connections over TLS for the REST client's requests (watches keep
 * node:https: they stream). Why not node:https here: its per-request machinery
 * (ClientRequest, IncomingMessage, the agent's pool key, which concatenates the PEM material
 * on every request, and stream plumbing) cost the scheduler about a quarter of its CPU under
 * load, more than scheduling a pod on 5,000 nodes. This pool writes one buffer per request
 * and reads the response with the framing of http1-response.ts.
 *
 * Like Go's transport, a request sent on a reused connection that the server closed before
 * answering (it timed the connection out as idle meanwhile) is resent once on a new
 * connection when the method is idempotent; otherwise the caller gets ECONNRESET. An idle
 * connection is dropped a second before the server's announced `Keep-Alive: timeout`.
 */
import { isIP } from 'node:net';
import { connect, createSecureContext, type SecureContext, type TLSSocket } from 'node:tls';
import { awaitedEnd, frameResponse, responseBody } from './http1-response.js';

export interface Http1PoolOptions {
  host: string;
  port: number;
  caPem: string;
  certPem?: string;
  keyPem?: string;
  /** Connections open at once; further requests wait for one. */
  maxConnections: number;
}

export interface Http1Response {
  status: number;
  /** Header fields, names lower-cased. */
  headers: Map<string, string>;
  body: Buffer;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** An error with the errno-style code callers test for retries. */
function connectionError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

class Connection {
  readonly socket: TLSSocket;
  /**
   * The current response's bytes so far, joined only when framing is tried: concatenating each
   * packet onto the rest copied a 512 KiB answer some 30 times (55% of a test's CPU).
   */
  private chunks: Buffer[] = [];
  private length = 0;
  /** How the current response ends, once its head said (frameResponse is tried when it may have). */
  private awaited: { length: number } | 'chunked' | undefined;
  private pending: { resolve: (r: Http1Response) => void; reject: (e: Error) => void; head: boolean } | undefined;
  private failure: Error | undefined;
  private ended = false;
  /** Requests answered on this connection. */
  answered = 0;
  /** Bytes of the current response received so far. */
  private received = 0;
  /** How long the connection may stay idle and still be reused; Infinity when the server named no timeout. */
  idleMs = Number.POSITIVE_INFINITY;
  private idleTimer: NodeJS.Timeout | undefined;
  closed = false;

  constructor(
    o: Http1PoolOptions,
    context: SecureContext,
    private readonly onClosed: (c: Connection) => void,
  ) {
    this.socket = connect({
      host: o.host,
      port: o.port,
      secureContext: context,
      // SNI only for names, as node:https does.
      ...(isIP(o.host) === 0 ? { servername: o.host } : {}),
      ALPNProtocols: ['http/1.1'],
    });
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('end', () => {
      this.ended = true;
      this.onData(Buffer.alloc(0));
    });
    this.socket.on('error', (err) => {
      this.failure ??= err;
    });
    this.socket.on('close', () => this.onClose());
  }

  /** Sends one request; a connection carries one request at a time. */
  send(bytes: Buffer, head: boolean): Promise<Http1Response> {
    this.received = 0;
    return new Promise((resolve, reject) => {
      if (this.closed || this.socket.destroyed) {
        reject(this.failure ?? connectionError('connection closed', 'ECONNRESET'));
        return;
      }
      this.cancelIdle();
      this.pending = { resolve, reject, head };
      this.socket.write(bytes);
    });
  }

  /** True when the server closed the connection before a byte of the current answer came. */
  get closedUnanswered(): boolean {
    return this.received === 0;
  }

  idle(ms: number, onExpire: () => void): void {
    if (!Number.isFinite(ms)) return;
    this.idleTimer = setTimeout(onExpire, ms);
    this.idleTimer.unref();
  }

  cancelIdle(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  destroy(): void {
    this.cancelIdle();
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.received += chunk.length;
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.length += chunk.length;
    }
    const p = this.pending;
    if (p === undefined) {
      // Bytes nobody asked for: the stream is out of step, so it is not reused.
      if (this.length > 0) this.destroy();
      return;
    }
    if (!this.ended && !this.mayBeComplete()) return;
    const buf = this.joined();
    let frame: ReturnType<typeof frameResponse>;
    try {
      frame = frameResponse(buf, this.ended, p.head);
      if (frame === undefined) this.awaited = p.head ? undefined : awaitedEnd(buf);
    } catch (err) {
      this.failure = err as Error;
      this.destroy();
      return;
    }
    if (frame === undefined) return;
    const body = Buffer.from(responseBody(buf, frame));
    const rest = buf.subarray(frame.end);
    this.chunks = [];
    this.length = 0;
    this.awaited = undefined;
    this.pending = undefined;
    this.answered++;
    const keepAlive = /timeout=(\d+)/i.exec(frame.headers.get('keep-alive') ?? '');
    // A second of margin, as node's agent keeps, so the server never closes a connection in use.
    if (keepAlive) this.idleMs = Number(keepAlive[1]) * 1000 - 1000;
    if (frame.close || rest.length > 0) this.destroy();
    p.resolve({ status: frame.status, headers: frame.headers, body });
  }

  /** Whether the bytes so far may hold the whole response: always until its head has come. */
  private mayBeComplete(): boolean {
    const a = this.awaited;
    if (a === undefined) return true;
    if (a !== 'chunked') return this.length >= a.length;
    // A chunked body ends with an empty line (after the last chunk, or after its trailers).
    return this.endsWithBlankLine();
  }

  private endsWithBlankLine(): boolean {
    const last = this.chunks[this.chunks.length - 1];
    const tail = last.length >= 4 ? last.subarray(last.length - 4) : this.joined().subarray(this.length - 4);
    return tail.length === 4 && tail[0] === 0x0d && tail[1] === 0x0a && tail[2] === 0x0d && tail[3] === 0x0a;
  }

  /** The current response's bytes as one buffer (kept as the only chunk). */
  private joined(): Buffer {
    if (this.chunks.length !== 1) this.chunks = [this.chunks.length === 0 ? Buffer.alloc(0) : Buffer.concat(this.chunks, this.length)];
    return this.chunks[0];
  }

  private onClose(): void {
    this.closed = true;
    this.cancelIdle();
    const p = this.pending;
    this.pending = undefined;
    p?.reject(this.failure ?? connectionError('the server closed the connection before answering', 'ECONNRESET'));
    this.onClosed(this);
  }
}

export class Http1Pool {
  private readonly context: SecureContext;
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();
  private readonly waiting: ((c: Connection | undefined) => void)[] = [];
  private closed = false;

  constructor(private readonly o: Http1PoolOptions) {
    // Parsed once: the PEM material is not re-read per connection.
    this.context = createSecureContext({ ca: o.caPem, ...(o.certPem && o.keyPem ? { cert: o.certPem, key: o.keyPem } : {}) });
  }

  /** Sends `method path` with the header lines given (no Host) and the body; resolves with the whole response. */
  async request(method: string, path: string, headerLines: string, body?: Buffer): Promise<Http1Response> {
    // What node:http refuses too: a path or header that would split the request.
    if (/[\s]/.test(path) || /[\r\n]/.test(headerLines.replace(/\r\n/g, '')))
      throw new TypeError(`request path or header contains unescaped characters: ${JSON.stringify(path)}`);
    const head = `${method} ${path} HTTP/1.1\r\nHost: ${this.hostHeader()}\r\n${headerLines}${body ? `Content-Length: ${body.length}\r\n` : ''}\r\n`;
    const bytes = body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
    for (let attempt = 0; ; attempt++) {
      const conn = await this.acquire();
      const reused = conn.answered > 0;
      try {
        const res = await conn.send(bytes, method === 'HEAD');
        this.release(conn);
        return res;
      } catch (err) {
        this.release(conn);
        if (attempt === 0 && reused && conn.closedUnanswered && IDEMPOTENT.has(method)) continue;
        throw err;
      }
    }
  }

  /** Closes every connection; requests waiting for one fail. */
  close(): void {
    this.closed = true;
    for (const c of this.all) c.destroy();
    for (const w of this.waiting.splice(0)) w(undefined);
  }

  private hostHeader(): string {
    return isIP(this.o.host) === 6 ? `[${this.o.host}]:${this.o.port}` : `${this.o.host}:${this.o.port}`;
  }

  private async acquire(): Promise<Connection> {
    if (this.closed) throw connectionError('client closed', 'ECONNABORTED');
    // Most recently used first: it is the least likely to have been timed out by the server.
    const idle = this.idle.pop();
    if (idle !== undefined) return idle;
    if (this.all.size < this.o.maxConnections) return this.open();
    const c = await new Promise<Connection | undefined>((resolve) => this.waiting.push(resolve));
    if (c === undefined) throw connectionError('client closed', 'ECONNABORTED');
    return c;
  }

  private open(): Connection {
    const c = new Connection(this.o, this.context, (closed) => {
      this.all.delete(closed);
      const i = this.idle.indexOf(closed);
      if (i >= 0) this.idle.splice(i, 1);
      // A slot is free: the next waiter gets a new connection.
      const next = this.waiting.shift();
      if (next !== undefined) next(this.closed ? undefined : this.open());
    });
    this.all.add(c);
    return c;
  }

  private release(c: Connection): void {
    // A connection being destroyed leaves through its close event, which frees its slot.
    if (c.closed || c.socket.destroyed || this.closed) return;
    const next = this.waiting.shift();
    if (next !== undefined) {
      next(c);
      return;
    }
    this.idle.push(c);
    c.idle(c.idleMs, () => c.destroy());
  }
}
