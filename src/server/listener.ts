/**
 * The TLS listener: HTTP/2 and HTTP/1.1 on one port, client certificates requested (verified
 * against the client CA but not required, so unauthenticated requests reach the 401 path),
 * and a graceful close that lets in-flight requests finish.
 */
import http2 from 'node:http2';
import type { Socket } from 'node:net';
import type { Request, Response } from './http.js';

export interface ListenerOptions {
  certPem: string;
  keyPem: string;
  clientCaPem: string;
  bindAddress: string;
  port: number;
}

export interface Listener {
  port: number;
  /** Stops accepting, waits for in-flight requests (up to timeoutMs), then closes every connection. */
  close(timeoutMs: number): Promise<void>;
}

/** Starts listening; resolves once the port is bound. */
export function listen(opts: ListenerOptions, handler: (req: Request, res: Response) => void): Promise<Listener> {
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const server = http2.createSecureServer({
    cert: opts.certPem, key: opts.keyPem, ca: opts.clientCaPem,
    requestCert: true, rejectUnauthorized: false, allowHTTP1: true,
    settings: { maxConcurrentStreams: 1000 },
  }, (req, res) => {
    inFlight++;
    res.on('close', () => {
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    handler(req, res);
  });
  const sockets = new Set<Socket>();
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('session', (s: http2.ServerHttp2Session) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  // A client that speaks garbage must not take the server down.
  server.on('tlsClientError', () => {});
  server.on('sessionError', () => {});
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.bindAddress, () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : opts.port;
      resolve({
        port,
        async close(timeoutMs) {
          server.close();
          for (const s of sessions) s.close();
          if (inFlight > 0) {
            await new Promise<void>((done) => {
              drained = done;
              setTimeout(done, timeoutMs).unref();
            });
          }
          for (const s of sessions) s.destroy();
          for (const s of sockets) s.destroy();
        },
      });
    });
  });
}
