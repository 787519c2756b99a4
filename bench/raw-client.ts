/**
 * A minimal keep-alive HTTP/1.1 client over one node:tls socket, for the load generator.
 * Why not node:https: on this 2-core machine its per-request cost (ClientRequest,
 * IncomingMessage, header objects) made the generator, not the trivial server, the
 * bottleneck, which inflates every ratio against that baseline. This client writes
 * precomputed bytes and parses only the status line, Content-Length and chunked framing.
 */
import { connect, type TLSSocket } from 'node:tls';
import { frameResponse } from '../src/client/http1-response.js';

export interface RawTarget {
  host: string;
  port: number;
  ca: string;
  cert?: string;
  key?: string;
}

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
  const f = frameResponse(buf);
  return f === undefined ? undefined : { status: f.status, length: f.end, close: f.close };
}
