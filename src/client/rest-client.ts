/**
 * The REST client components use to talk to the API server, exactly as a separate process
 * would: HTTPS with a client certificate, JSON or Protobuf bodies (content-type.ts; watches
 * stream JSON, as the API server serves them), keep-alive connections (http1-pool.ts;
 * watches stream over node:https), client-go's
 * client-side token-bucket rate limit (qps/burst) and its retries: a 429 (the server did no
 * work) is retried for every verb after Retry-After, a 5xx only for idempotent verbs, with
 * exponential backoff when the server names no delay; connection failures of GETs too.
 */
import https from 'node:https';
import { parseJson } from '../machinery/json-parse-steps.js';
import type { IncomingMessage } from 'node:http';
import { type Clock, REAL_CLOCK, sleep } from './clock.js';
import { type Http1Response, Http1Pool } from './http1-pool.js';
import { type RateLimiter, rateLimiterFor } from './rate-limiter.js';
import { acceptHeader, decodeProtobufBody, encodeRequestBody, isProtobufMediaType, JSON_MEDIA_TYPE } from './content-type.js';

export interface ClientConfig {
  /** `https://host:port` */
  server: string;
  caPem: string;
  /** Client certificate and key; absent when the client authenticates with a bearer token. */
  certPem?: string;
  keyPem?: string;
  /** A bearer token, read per request (a token source may refresh it). */
  bearerToken?: () => string;
  userAgent?: string;
  /** Requests per second (client-go's QPS); <= 0 or absent: unlimited. */
  qps?: number;
  /** Requests allowed at once above qps. Default: ceil(qps). */
  burst?: number;
  /**
   * Content type of request bodies (client-go's ContentType): a Protobuf media type sends kinds
   * that have a Protobuf message as Protobuf and asks for Protobuf answers. Default JSON.
   */
  contentType?: string;
  /** The Accept header (client-go's AcceptContentTypes); default from contentType. */
  acceptContentTypes?: string;
  /** Retries of one request on 429 / 5xx / connection errors. Default 10, as client-go. */
  maxRetries?: number;
  clock?: Clock;
}

export interface ClientResponse<T = unknown> {
  status: number;
  body: T;
}

export type WatchEvent = { type: string; object: Record<string, unknown> };

/** A response other than the one expected: the status code and the server's Status body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    context: string,
  ) {
    super(`${context}: ${statusMessage(status, body)}`);
  }

  /** The Status reason (`NotFound`, `Conflict`, `Expired`...), when the server sent one. */
  get reason(): string | undefined {
    const r = (this.body as { reason?: unknown } | undefined)?.reason;
    return typeof r === 'string' ? r : undefined;
  }
}

function statusMessage(status: number, body: unknown): string {
  const m = (body as { message?: unknown } | undefined)?.message;
  return typeof m === 'string' ? `${m} (HTTP ${status})` : `HTTP ${status}`;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
/** Backoff for a 5xx without Retry-After: 200 ms doubling, at most 2 s. */
const retryDelayMs = (attempt: number) => Math.min(2000, 200 * 2 ** attempt);

export class RestClient {
  private readonly pool: Http1Pool;
  /** Watches hold their connection for minutes: they get their own unbounded pool, so they never starve requests. */
  private readonly watchAgent: https.Agent;
  private readonly url: URL;
  private readonly limiter: RateLimiter;
  private readonly clock: Clock;
  private readonly maxRetries: number;
  /** The request head's fixed lines (Accept, User-Agent). */
  private readonly fixedLines: string;

  constructor(private readonly cfg: ClientConfig) {
    this.url = new URL(cfg.server);
    const tls = { ca: cfg.caPem, ...(cfg.certPem && cfg.keyPem ? { cert: cfg.certPem, key: cfg.keyPem } : {}) };
    this.pool = new Http1Pool({
      host: this.url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(this.url.port || 443),
      caPem: cfg.caPem,
      certPem: cfg.certPem,
      keyPem: cfg.keyPem,
      maxConnections: 8,
    });
    this.watchAgent = new https.Agent({ keepAlive: false, ...tls });
    this.clock = cfg.clock ?? REAL_CLOCK;
    this.limiter = rateLimiterFor(cfg.qps, cfg.burst, this.clock);
    this.maxRetries = cfg.maxRetries ?? 10;
    this.fixedLines = `Accept: ${acceptHeader(cfg.contentType, cfg.acceptContentTypes)}\r\nUser-Agent: ${this.userAgent}\r\n`;
  }

  private get userAgent(): string {
    return this.cfg.userAgent ?? 'orch-controller-manager';
  }

  /** Opens a watch's streaming response. */
  private openWatch(path: string, signal?: AbortSignal, accept?: string): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          agent: this.watchAgent,
          signal,
          host: this.url.hostname,
          port: this.url.port,
          method: 'GET',
          path,
          headers: {
            // The API server streams watches as JSON only (apiserver.md), so that is what is asked
            // for, unless the caller asks for JSON of another kind (metadata only).
            accept: accept ?? JSON_MEDIA_TYPE,
            'user-agent': this.userAgent,
            ...(this.cfg.bearerToken ? { authorization: `Bearer ${this.cfg.bearerToken()}` } : {}),
          },
        },
        resolve,
      );
      req.on('error', reject);
      req.end();
    });
  }

  /** One request over the keep-alive pool. */
  private send(method: string, path: string, payload: Buffer | undefined, contentType: string, accept: string | undefined): Promise<Http1Response> {
    let lines = accept === undefined ? this.fixedLines : `Accept: ${accept}\r\nUser-Agent: ${this.userAgent}\r\n`;
    if (this.cfg.bearerToken) lines += `Authorization: Bearer ${this.cfg.bearerToken()}\r\n`;
    if (payload) lines += `Content-Type: ${contentType}\r\n`;
    return this.pool.request(method, path, lines, payload);
  }

  /**
   * One request, rate-limited and retried; resolves with the status and decoded body (never
   * rejects on 4xx/5xx). The body goes in the client's content type unless `contentType` names
   * another (a patch's); it is then sent as that type's JSON. `accept` replaces the client's
   * Accept header (a metadata-only list's `application/json;as=PartialObjectMetadataList;...`).
   */
  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown, contentType?: string, accept?: string): Promise<ClientResponse<T>> {
    let payload: Buffer | undefined;
    if (body !== undefined) {
      if (contentType === undefined) ({ bytes: payload, contentType } = encodeRequestBody(body, this.cfg.contentType));
      else payload = Buffer.from(JSON.stringify(body));
    }
    for (let attempt = 0; ; attempt++) {
      await this.limiter.wait();
      let res: Http1Response;
      try {
        res = await this.send(method, path, payload, contentType ?? JSON_MEDIA_TYPE, accept);
      } catch (err) {
        // Only a GET is known to be safe to resend when the connection failed mid-way.
        if (method !== 'GET' || attempt >= this.maxRetries || !isConnectionError(err)) throw err;
        await sleep(this.clock, retryDelayMs(attempt));
        continue;
      }
      const status = res.status;
      const retryable = status === 429 || (status >= 500 && IDEMPOTENT.has(method));
      if (retryable && attempt < this.maxRetries) {
        const after = retryAfterMs(res.headers.get('retry-after'));
        await sleep(this.clock, after ?? retryDelayMs(attempt));
        continue;
      }
      return { status, body: (await decodeBody(res.body, res.headers.get('content-type'))) as T };
    }
  }

  /** Like request, but rejects with ApiError unless the status is one of `ok` (default 2xx). */
  async expect<T = Record<string, unknown>>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
    const res = await this.request<T>(method, path, body, contentType);
    if (res.status < 200 || res.status > 299) throw new ApiError(res.status, res.body, `${method} ${path}`);
    return res.body;
  }

  /**
   * Opens a watch and calls onEvent per event until the stream ends; resolves then. Rejects
   * with ApiError when the server refuses the watch. `onStart` receives a stop function; an
   * aborted `signal` also ends a watch whose response has not arrived yet (it rejects then).
   * `accept` asks for JSON events of another kind (`application/json;as=PartialObjectMetadata;...`).
   */
  async watch(path: string, onEvent: (e: WatchEvent) => void, onStart?: (stop: () => void) => void, signal?: AbortSignal, accept?: string): Promise<void> {
    await this.limiter.wait();
    const res = await this.openWatch(path, signal, accept);
    // Destroying the socket ends the stream at once, even before any byte of it has arrived.
    onStart?.(() => res.socket?.destroy());
    if (res.statusCode !== 200) throw new ApiError(res.statusCode ?? 0, await readBody(res).catch(() => undefined), `watch ${path}`);
    res.setEncoding('utf8');
    return new Promise<void>((resolve, reject) => {
      /** The current line so far, in the chunks it arrived in (joined once, when its end arrives). */
      let pending: string[] = [];
      let done = false;
      const finish = (err?: unknown) => {
        if (done) return;
        done = true;
        if (err === undefined) resolve();
        else reject(err);
      };
      const fail = (err: unknown) => {
        // A handler's error (or a line that is not JSON) ends this watch with that error.
        finish(err);
        res.socket?.destroy();
      };
      /**
       * Hands a chunk's complete lines to onEvent; true when it stopped at a large event, which
       * is parsed in steps (an object of megabytes holds the thread for tens of milliseconds
       * parsed at once, and an all-in-one server runs its controllers on its own thread): the
       * stream is paused meanwhile, so events stay in order.
       */
      const take = (chunk: string): boolean => {
        if (done) return false;
        try {
          // Only the new chunk is searched for line ends: an event of megabytes arriving in
          // hundreds of chunks costs one pass, not one pass over all of it per chunk.
          let start = 0;
          for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
            // Most lines arrive whole in one chunk: no list to join then.
            let line: string;
            if (pending.length === 0) line = chunk.slice(start, nl);
            else {
              pending.push(chunk.slice(start, nl));
              line = pending.join('');
              pending = [];
            }
            start = nl + 1;
            if (isBlank(line)) continue;
            const event = parseJson(line);
            if (event instanceof Promise) {
              res.pause();
              const rest = chunk.slice(start);
              event.then((e) => {
                if (done) return;
                try {
                  onEvent(e as WatchEvent);
                } catch (err) {
                  fail(err);
                  return;
                }
                if (!take(rest) && !done) res.resume();
              }, fail);
              return true;
            }
            onEvent(event as WatchEvent);
          }
          if (start < chunk.length) pending.push(chunk.slice(start));
        } catch (err) {
          fail(err);
        }
        return false;
      };
      res.on('data', take);
      // The end of the stream, a stop or a dropped connection all end the watch quietly: the caller resumes.
      res.on('end', () => finish());
      res.on('close', () => finish());
      res.on('error', () => finish());
    });
  }

  /** A client to the same server with other credentials or limits (client-go's rest.CopyConfig, then changed). */
  derive(changes: Partial<ClientConfig>): RestClient {
    return new RestClient({ ...this.cfg, ...changes });
  }

  /** Releases pooled connections and ends open watches. */
  close(): void {
    this.pool.close();
    this.watchAgent.destroy();
  }
}

async function readBody(res: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return decodeBody(Buffer.concat(chunks), res.headers['content-type']);
}

/**
 * The object of a Protobuf answer; else the JSON value of a body (a large one parsed in steps),
 * or its text when it is not JSON (health endpoints).
 */
function decodeBody(body: Buffer, contentType?: string): unknown {
  if (isProtobufMediaType(contentType)) return decodeProtobufBody(body);
  const text = body.toString('utf8');
  if (text === '') return undefined;
  try {
    const value = parseJson(text);
    return value instanceof Promise ? value.catch(() => text) : value;
  } catch {
    return text;
  }
}

/** Retry-After in seconds (client-go reads only the integer form), capped so one answer cannot stall a client. */
function retryAfterMs(v: string | undefined): number | undefined {
  if (v === undefined || !/^\d+$/.test(v.trim())) return undefined;
  return Math.min(Number(v) * 1000, 60_000);
}

function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 'ECONNRESET' || code === 'ECONNREFUSED' || code === 'EPIPE' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNABORTED';
}

/** A line of only whitespace (an event's line starts with `{`: decided by its first character). */
function isBlank(line: string): boolean {
  if (line.length === 0) return true;
  return line.charCodeAt(0) <= 0x20 && line.trim() === '';
}
