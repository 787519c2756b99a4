/**
 * The TLS listener: HTTP/2 and HTTP/1.1 on one port, client certificates requested (verified
 * against the client CA but not required, so unauthenticated requests reach the 401 path),
 * and a graceful close that lets in-flight requests finish.
 *
 * TLS is terminated once by a tls.Server; each connection then goes, by its negotiated ALPN
 * protocol, to a plain HTTP/2 server or a plain HTTP/1.1 server. HTTP/1.1 thus takes node's
 * ordinary http path instead of http2's compatibility layer, which is measurably slower.
 */
import http from 'node:http';
import http2 from 'node:http2';
import tls from 'node:tls';
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
  const counted = (req: Request, res: Response) => {
    inFlight++;
    res.on('close', () => {
      inFlight--;
      if (inFlight === 0) drained?.();
    });
    handler(req, res);
  };
  const h1 = http.createServer({ keepAliveTimeout: 60_000 }, counted);
  const h2 = http2.createServer({ settings: { maxConcurrentStreams: 1000 } }, counted);
  const sockets = new Set<tls.TLSSocket>();
  const sessions = new Set<http2.ServerHttp2Session>();
  h2.on('session', (s: http2.ServerHttp2Session) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  // A client that speaks garbage must not take the server down.
  h2.on('sessionError', () => {});
  // A request the parser refuses is answered 400 (431 for oversized headers) and the connection
  // closed, as node's default and upstream's Go server do; a silent drop looks like a crash.
  h1.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    const pending = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || pending?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(
      err.code === 'HPE_HEADER_OVERFLOW'
        ? 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n'
        : 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n',
    );
  });
  const server = tls.createServer(
    {
      cert: opts.certPem,
      key: opts.keyPem,
      ca: opts.clientCaPem,
      requestCert: true,
      rejectUnauthorized: false,
      ALPNProtocols: ['h2', 'http/1.1'],
    },
    (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      (socket.alpnProtocol === 'h2' ? h2 : h1).emit('connection', socket);
    },
  );
  server.on('tlsClientError', () => {});
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
          h1.closeIdleConnections();
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
