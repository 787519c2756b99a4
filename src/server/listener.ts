/**
 * The TLS listener: HTTP/2 and HTTP/1.1 on one port, client certificates requested (verified
 * against the client CA but not required, so unauthenticated requests reach the 401 path),
 * connection deadlines and a per-address bound (connection-limits.ts), and a graceful close
 * that lets in-flight requests finish.
 *
 * TLS is terminated once by a tls.Server; each connection then goes, by its negotiated ALPN
 * protocol, to a plain HTTP/2 server or a plain HTTP/1.1 server. HTTP/1.1 thus takes node's
 * ordinary http path instead of http2's compatibility layer, which is measurably slower.
 * Neither HTTP server listens itself, so what node arms in listen() is armed here by hand.
 */
import http from 'node:http';
import { rememberUpgradeHead } from './websocket-watch.js';
import http2 from 'node:http2';
import net from 'node:net';
import tls from 'node:tls';
import { AddressLimits, type ConnectionTimeouts, DEFAULT_TIMEOUTS, defaultMaxIdleConnectionsPerAddress } from './connection-limits.js';
import type { Request, Response } from './http.js';
import { guardSession } from './http2-session-timeouts.js';

export interface ListenerOptions {
  certPem: string;
  keyPem: string;
  clientCaPem: string;
  bindAddress: string;
  port: number;
  /** Connection deadlines; upstream's (DEFAULT_TIMEOUTS) where absent. Tests shorten them. */
  timeouts?: Partial<ConnectionTimeouts>;
  /** Idle connections one client address may hold (defaultMaxIdleConnectionsPerAddress when absent). */
  maxIdleConnectionsPerAddress?: number;
}

export interface Listener {
  port: number;
  /** Stops accepting, waits for in-flight requests (up to timeoutMs), then closes every connection. */
  close(timeoutMs: number): Promise<void>;
}

/** How often node's HTTP/1.1 server looks for connections past their header or request deadline. */
function checkingInterval(t: ConnectionTimeouts): number {
  return Math.max(10, Math.min(1000, Math.floor(t.headersMs / 4)));
}

/** Identifies a connection by its addresses, the same from the raw socket and from its TLS socket. */
function connectionKey(s: net.Socket): string {
  return `${s.remoteAddress}|${s.remotePort}|${s.localAddress}|${s.localPort}`;
}

/** Stands in for the HTTP parser's pause(): the socket's own pause stops the reads. */
function noPause(): void {}

/**
 * Node's HTTP/1.1 server feeds its parser straight from the TLS handle (parser.consume), the
 * fast path. When a request's headers arrive while earlier responses are still draining, node
 * stops reading the socket and also pauses the parser; but the TLS layer goes on handing over
 * every record it has already decrypted from the same read, and the paused parser fails them
 * with `Parse Error: Paused` (HPE_PAUSED): the keep-alive connection is reset mid-body, for
 * bodies past one 16 KiB TLS record (any node https server does the same). Stopping the reads
 * is the backpressure that matters; the parser is left running, so what one read had already
 * brought (at most one read's worth) is parsed and queued in order, as pipelined requests are.
 * Reading the socket as a stream instead (whose pause() buffers) fixes it too, at about a
 * sixth of a GET's server CPU. Only node's HTTP server pauses parsers, so the pooled parser
 * keeping this for its next socket changes nothing elsewhere.
 */
function keepParserRunning(socket: net.Socket): void {
  const parser = (socket as { parser?: { pause(): void } }).parser;
  if (parser) parser.pause = noPause;
}

/** Starts listening; resolves once the port is bound. */
export function listen(opts: ListenerOptions, handler: (req: Request, res: Response) => void): Promise<Listener> {
  const timeouts: ConnectionTimeouts = { ...DEFAULT_TIMEOUTS, ...opts.timeouts };
  const limits = new AddressLimits(opts.maxIdleConnectionsPerAddress ?? defaultMaxIdleConnectionsPerAddress());
  let inFlight = 0;
  let drained: (() => void) | undefined;
  /** Counts a request in flight (for close) and, over HTTP/1.1, its connection as busy (HTTP/2 sessions are tracked by guardSession). */
  const count = (req: Request, res: Response, conn?: net.Socket) => {
    inFlight++;
    if (conn) limits.requestStarted(conn, conn.remoteAddress);
    res.on('close', () => {
      inFlight--;
      if (conn) limits.requestEnded(conn);
      if (inFlight === 0) drained?.();
    });
    handler(req, res);
  };
  const h1 = http.createServer(
    {
      keepAliveTimeout: timeouts.idleMs,
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: checkingInterval(timeouts),
    },
    (req, res) => count(req, res, req.socket),
  );
  // An upgrade request (a watch over WebSocket) goes through the router like any other, with a
  // response bound to its socket: refusals are plain HTTP, and the watch handler upgrades.
  h1.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    rememberUpgradeHead(req, head);
    const res = new http.ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    // Answered without upgrading: the connection ends with the response.
    res.once('finish', () => socket.end());
    count(req, res, socket);
  });
  // listen() is what starts node's connection tracking (the list behind closeIdleConnections)
  // and the periodic check of headersTimeout/requestTimeout; h1 only ever receives handed-off
  // sockets, so it is started here.
  h1.emit('listening');
  const h2 = http2.createServer({ settings: { maxConcurrentStreams: 1000 } }, (req, res) => count(req, res));
  const sockets = new Set<tls.TLSSocket>();
  const sessions = new Set<http2.ServerHttp2Session>();
  // A client that speaks garbage must not take the server down.
  h2.on('sessionError', () => {});
  // A request the parser refuses is answered 400 (431 for oversized headers, 408 past its
  // deadline) and the connection closed, as node's default does; a silent drop looks like a
  // crash. Upstream's Go server answers the same codes.
  h1.on('clientError', (err: NodeJS.ErrnoException, socket: net.Socket) => {
    const pending = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || pending?.headersSent) {
      socket.destroy();
      return;
    }
    const status =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? '431 Request Header Fields Too Large'
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
    // Destroyed once written: a client that never closes its side must not keep the socket.
    socket.once('finish', () => socket.destroy());
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  });

  const handshakes = new Map<string, NodeJS.Timeout>();
  /** Every accepted TCP connection, handshaking or not, for close(). */
  const raws = new Set<net.Socket>();
  const tlsServer = tls.createServer(
    {
      cert: opts.certPem,
      key: opts.keyPem,
      ca: opts.clientCaPem,
      requestCert: true,
      rejectUnauthorized: false,
      ALPNProtocols: ['h2', 'http/1.1'],
      handshakeTimeout: timeouts.handshakeMs,
    },
    (socket) => {
      const key = connectionKey(socket);
      clearTimeout(handshakes.get(key));
      handshakes.delete(key);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      if (socket.alpnProtocol === 'h2') {
        handOffH2(socket);
        return;
      }
      h1.emit('connection', socket);
      keepParserRunning(socket);
    },
  );
  const handOffH2 = (socket: tls.TLSSocket) => {
    const address = socket.remoteAddress;
    let session: http2.ServerHttp2Session | undefined;
    const onSession = (s: http2.ServerHttp2Session) => {
      session = s;
    };
    // The server creates the session synchronously inside the 'connection' emit.
    h2.once('session', onSession);
    h2.emit('connection', socket);
    h2.off('session', onSession);
    if (!session) return;
    const s = session;
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
    guardSession(s, socket, timeouts, { busy: () => limits.requestStarted(s, address), idle: () => limits.requestEnded(s) });
  };
  tlsServer.on('tlsClientError', () => {});

  // Connections are accepted here and only then given to TLS, so a refused one costs no
  // handshake, and the handshake deadline runs from accept whatever the client trickles (node's
  // own handshakeTimeout restarts on every byte).
  const server = net.createServer((raw) => {
    const address = raw.remoteAddress;
    if (address === undefined) {
      raw.destroy();
      return;
    }
    if (!limits.admit(address)) {
      raw.destroy();
      return;
    }
    raws.add(raw);
    const key = connectionKey(raw);
    handshakes.set(
      key,
      setTimeout(() => {
        handshakes.delete(key);
        raw.destroy();
      }, timeouts.handshakeMs).unref(),
    );
    raw.once('close', () => {
      clearTimeout(handshakes.get(key));
      handshakes.delete(key);
      raws.delete(raw);
      limits.closed(address);
    });
    tlsServer.emit('connection', raw);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.bindAddress, () => {
      server.off('error', reject);
      // After listen, errors are failed accepts (EMFILE when descriptors run out): the
      // connection is lost but the server keeps accepting, so they must not crash the process.
      server.on('error', () => {});
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : opts.port;
      resolve({
        port,
        async close(timeoutMs) {
          server.close();
          for (const s of sessions) s.close();
          // Also stops node's periodic deadline check.
          h1.close();
          if (inFlight > 0) {
            await new Promise<void>((done) => {
              drained = done;
              setTimeout(done, timeoutMs).unref();
            });
          }
          for (const s of sessions) s.destroy();
          for (const s of sockets) s.destroy();
          for (const s of raws) s.destroy();
        },
      });
    });
  });
}
