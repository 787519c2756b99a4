/**
 * The suite's HTTP client: keep-alive connections with the admin certificate, exact bodies and
 * headers, a deadline per request, and a watch mode that reads only the start of the answer.
 * Never throws: a transport failure is an answer with status 0 and the error.
 */
import https from 'node:https';

export interface ServerInfo {
  url: string;
  caPem: string;
  adminCertPem: string;
  adminKeyPem: string;
  /** The server's process, when it runs in one of its own (its main thread's CPU time is read by the prober). */
  pid?: number;
}

export interface Answer {
  /** HTTP status, or 0 when the connection failed before a status arrived. */
  status: number;
  text: string;
  headers: Record<string, string | string[] | undefined>;
  /** Transport error (reset, timeout...) when status is 0. */
  error?: string;
  ms: number;
}

/** A keep-alive connection pool of one socket: requests on it go one after another. */
export function connection(server: ServerInfo): https.Agent {
  return new https.Agent({ keepAlive: true, maxSockets: 1, ca: server.caPem, cert: server.adminCertPem, key: server.adminKeyPem });
}

export interface SendOptions {
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Give up (status 0, error 'timeout') after this long. */
  timeoutMs: number;
  /** Read only the status and up to this long of the body, then hang up (for watches). */
  watch?: boolean;
}

/** Sends one request; resolves with whatever came back, never rejects. */
export function send(server: ServerInfo, agent: https.Agent | false, method: string, path: string, opts: SendOptions): Promise<Answer> {
  const url = new URL(server.url);
  const started = performance.now();
  const headers: Record<string, string | number> = { ...(opts.headers ?? {}) };
  if (opts.body !== undefined) headers['content-length'] = Buffer.byteLength(opts.body);
  return new Promise((resolve) => {
    let done = false;
    let status = 0;
    let resHeaders: Answer['headers'] = {};
    const chunks: Buffer[] = [];
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({
        status,
        text: Buffer.concat(chunks).toString('utf8'),
        headers: resHeaders,
        error: status === 0 ? (error ?? 'no answer') : undefined,
        ms: performance.now() - started,
      });
    };
    let req: ReturnType<typeof https.request>;
    try {
      req = https.request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          headers,
          ...(agent === false ? { agent: false as const, ca: server.caPem, cert: server.adminCertPem, key: server.adminKeyPem } : { agent }),
        },
        (res) => {
          status = res.statusCode ?? 0;
          resHeaders = res.headers;
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => finish());
          res.on('error', (e) => finish(e.message));
          res.on('aborted', () => finish('aborted'));
          if (opts.watch) {
            // A watch answers 200 and streams: the status and first events are all a case needs.
            setTimeout(() => {
              finish();
              req.destroy();
            }, 250).unref();
          }
        },
      );
    } catch (e) {
      // The client refused to send it (a generator bug: unescaped path, bad header value).
      resolve({ status: -1, text: '', headers: {}, error: `client refused the request: ${(e as Error).message}`, ms: 0 });
      return;
    }
    const timer = setTimeout(() => {
      finish('timeout');
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
    req.end(opts.body);
  });
}
