/**
 * Client helpers for the list and watch tests: a keep-alive HTTPS client (thousands of writes
 * in a few seconds), and a watch stream reader over HTTP/1.1 or HTTP/2 that records every
 * event with its arrival time and when the stream ended.
 */
import http2 from 'node:http2';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { ControlPlane } from '../../src/cmd/control-plane.js';
import { request, type RawResponse } from './cluster.js';

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface Client {
  req(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  /** The JSON body after asserting the status. */
  ok(method: string, path: string, body?: unknown, expected?: number): Promise<any>;
  close(): void;
}

/** An admin HTTPS client that reuses its connections (a new TLS handshake per request is slow). */
export function keepAliveClient(cluster: ControlPlane, maxSockets = 16): Client {
  const agent = new https.Agent({ keepAlive: true, maxSockets, ca: cluster.caPem, cert: cluster.adminCertPem, key: cluster.adminKeyPem });
  const req = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawResponse> =>
    request(cluster, method, path, { body: body as object | undefined, headers, agent });
  return {
    req,
    async ok(method, path, body, expected) {
      const r = await req(method, path, body);
      const want = expected ?? (method === 'POST' ? 201 : 200);
      if (r.status !== want) throw new Error(`${method} ${path}: expected ${want}, got ${r.status}: ${r.text.slice(0, 500)}`);
      return r.json;
    },
    close() {
      agent.destroy();
    },
  };
}

/** Runs fn over items with at most `concurrency` in flight. */
export async function inParallel<T>(items: T[], concurrency: number, fn: (item: T, index: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

export interface WatchEvent {
  type: string;
  object: any;
  /** performance.now() when the line arrived. */
  at: number;
}

/** One watch request: its status, and (for 200) the events as they arrive. */
export class WatchStream {
  status = 0;
  headers: IncomingHttpHeaders | http2.IncomingHttpHeaders = {};
  /** Every event received so far, in order. */
  readonly events: WatchEvent[] = [];
  /** The body of a non-200 answer. */
  text = '';
  /** performance.now() when the response ended (undefined while it is open). */
  endedAt: number | undefined;
  /** Set when a line was not JSON (the stream is corrupt). */
  parseError: string | undefined;
  /** Resolves when the response ends (cleanly or not). */
  readonly ended: Promise<void>;
  private markEnded!: () => void;
  private cursor = 0;
  private buffer = '';
  private waiters = new Set<() => void>();
  private closer: () => void = () => {};

  constructor() {
    this.ended = new Promise((resolve) => {
      this.markEnded = resolve;
    });
  }

  /** The JSON body of a non-200 answer. */
  get json(): any {
    return JSON.parse(this.text);
  }

  /** Feeds body bytes (newline-delimited JSON for a 200). */
  feed(chunk: Buffer): void {
    if (this.status !== 200) {
      this.text += chunk.toString('utf8');
      return;
    }
    this.buffer += chunk.toString('utf8');
    for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (line.trim() === '') continue;
      try {
        const e = JSON.parse(line) as { type: string; object: unknown };
        this.events.push({ type: e.type, object: e.object, at: performance.now() });
      } catch {
        this.parseError ??= line.slice(0, 200);
      }
    }
    this.wake();
  }

  end(): void {
    if (this.endedAt !== undefined) return;
    this.endedAt = performance.now();
    this.markEnded();
    this.wake();
  }

  setCloser(fn: () => void): void {
    this.closer = fn;
  }

  close(): void {
    this.closer();
  }

  private wake(): void {
    for (const w of this.waiters) w();
  }

  /** Waits until cond() is true; rejects after timeoutMs with a description of what arrived. */
  waitUntil(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (cond()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (cond()) {
          clearTimeout(timer);
          this.waiters.delete(check);
          resolve();
        } else if (this.endedAt !== undefined) {
          clearTimeout(timer);
          this.waiters.delete(check);
          reject(new Error(`watch ended while waiting for ${what}; got ${this.describe()}`));
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; got ${this.describe()}`));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  /** The next event not yet taken. */
  async next(timeoutMs = 5000): Promise<WatchEvent> {
    await this.waitUntil(() => this.events.length > this.cursor, timeoutMs, `event #${this.cursor + 1}`);
    return this.events[this.cursor++];
  }

  /** The next n events not yet taken. */
  async take(n: number, timeoutMs = 5000): Promise<WatchEvent[]> {
    const want = this.cursor + n;
    await this.waitUntil(() => this.events.length >= want, timeoutMs, `${n} events after #${this.cursor}`);
    const out = this.events.slice(this.cursor, want);
    this.cursor = want;
    return out;
  }

  /** Asserts-friendly: the events not yet taken that arrive within ms (taking them). */
  async quiet(ms: number): Promise<WatchEvent[]> {
    await delay(ms);
    const out = this.events.slice(this.cursor);
    this.cursor = this.events.length;
    return out;
  }

  describe(): string {
    return JSON.stringify(this.events.map((e) => [e.type, e.object?.metadata?.name, e.object?.metadata?.resourceVersion]));
  }
}

/** Opens a watch (or any streamed GET) over HTTP/1.1 and resolves once the response headers arrived. */
export function openWatch(cluster: ControlPlane, path: string, headers: Record<string, string> = {}): Promise<WatchStream> {
  const url = new URL(cluster.url);
  const w = new WatchStream();
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: url.hostname,
        port: url.port,
        method: 'GET',
        path,
        headers,
        agent: false,
        ca: cluster.caPem,
        cert: cluster.adminCertPem,
        key: cluster.adminKeyPem,
      },
      (res) => {
        w.status = res.statusCode ?? 0;
        w.headers = res.headers;
        res.on('data', (c: Buffer) => w.feed(c));
        res.on('end', () => w.end());
        res.on('close', () => w.end());
        res.on('error', () => w.end());
        // A 200 is a stream: hand it over now. An error answer is handed over with its body.
        if (w.status === 200) resolve(w);
        else void w.ended.then(() => resolve(w));
      },
    );
    w.setCloser(() => req.destroy());
    req.on('error', (e) => {
      w.end();
      reject(e);
    });
    req.end();
  });
}

/** Opens a watch over HTTP/2 (its own session, closed with the stream). */
export function openWatchH2(cluster: ControlPlane, path: string): Promise<WatchStream & { alpn?: string }> {
  const w = new WatchStream() as WatchStream & { alpn?: string };
  return new Promise((resolve, reject) => {
    const session = http2.connect(cluster.url, { ca: cluster.caPem, cert: cluster.adminCertPem, key: cluster.adminKeyPem });
    session.on('error', reject);
    const stream = session.request({ ':path': path });
    w.setCloser(() => session.destroy());
    stream.on('response', (h) => {
      w.status = Number(h[':status']);
      w.headers = h;
      w.alpn = (session.socket as unknown as { alpnProtocol: string }).alpnProtocol;
      if (w.status === 200) resolve(w);
      else void w.ended.then(() => resolve(w));
    });
    stream.on('data', (c: Buffer) => w.feed(c));
    stream.on('end', () => {
      w.end();
      session.close();
    });
    stream.on('close', () => w.end());
    stream.on('error', (e) => {
      w.end();
      reject(e);
    });
    stream.end();
  });
}
