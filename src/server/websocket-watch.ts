/**
 * Watches over WebSocket (what browser UIs send): upstream's watch server upgrades a watch
 * request carrying `Upgrade: websocket` and sends each watch event as one message, JSON text
 * frames by default. The stream subprotocols of upstream's wsstream are honoured when offered:
 * `base64.binary.k8s.io` sends each event base64-encoded in a text frame (browsers that cannot
 * take binary frames), `binary.k8s.io` as a binary frame.
 *
 * The HTTP/1.1 listener hands upgrade requests to the router with a response bound to the
 * socket (listener.ts), so authentication, authorization and every error before the upgrade
 * are answered as plain HTTP. Once upgraded, the watch writes through a stand-in with the few
 * members of a response the watch sink uses; its backpressure is the socket's.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Request, Response } from './http.js';

const BASE64 = 'base64.binary.k8s.io';
const BINARY = 'binary.k8s.io';

/** The bytes read past an upgrade request's headers, kept for the handshake. */
const heads = new WeakMap<IncomingMessage, Buffer>();

export function rememberUpgradeHead(req: IncomingMessage, head: Buffer): void {
  heads.set(req, head);
}

/** The bytes the client sent after an upgrade request's headers (empty when none). */
export function upgradeHead(req: IncomingMessage): Buffer {
  return heads.get(req) ?? Buffer.alloc(0);
}

/** True for an HTTP/1.1 request asking to become a WebSocket. */
export function isWebSocketRequest(req: Request): req is IncomingMessage {
  const upgrade = req.headers.upgrade;
  const connection = req.headers.connection;
  return (
    typeof upgrade === 'string' &&
    upgrade.toLowerCase() === 'websocket' &&
    typeof connection === 'string' &&
    connection
      .toLowerCase()
      .split(',')
      .some((t) => t.trim() === 'upgrade')
  );
}

// No server of its own: handshakes only. Messages from the client are ignored, as upstream's.
// Loaded on the first upgrade: few clients watch over WebSocket, and the module costs start-up time.
let handshaker: Promise<WebSocketServer> | undefined;
function webSocketServer(): Promise<WebSocketServer> {
  handshaker ??= import('ws').then(
    ({ WebSocketServer }) =>
      new WebSocketServer({
        noServer: true,
        maxPayload: 64 * 1024,
        handleProtocols: (offered) => (offered.has(BASE64) ? BASE64 : offered.has(BINARY) ? BINARY : false),
      }),
  );
  return handshaker;
}

/** The stand-in response a watch writes to once upgraded: write(), backpressure, close. */
class WebSocketStream extends EventEmitter {
  destroyed = false;
  private readonly socket: Duplex;

  constructor(
    private readonly ws: WebSocket,
    socket: Duplex,
  ) {
    super();
    this.socket = socket;
    socket.on('drain', () => this.emit('drain'));
    ws.on('close', () => {
      this.destroyed = true;
      this.emit('close');
    });
    ws.on('error', () => ws.terminate());
  }

  get writableLength(): number {
    return this.ws.bufferedAmount + this.socket.writableLength;
  }

  writeHead(): this {
    return this;
  }

  write(line: Buffer): boolean {
    if (this.ws.readyState !== this.ws.OPEN) return false;
    const protocol = this.ws.protocol;
    if (protocol === BASE64) this.ws.send(line.toString('base64'), { binary: false });
    else if (protocol === BINARY) this.ws.send(line, { binary: true });
    else this.ws.send(line.toString('utf8'), { binary: false });
    return this.socket.writableLength < this.socket.writableHighWaterMark;
  }

  end(): this {
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(1000);
    else this.ws.terminate();
    return this;
  }
}

/**
 * Completes the handshake on the response's socket; resolves with the stream the watch writes
 * to, or undefined when the handshake was refused (ws answers 400 and closes). The original
 * response is detached, and reports 'close' when the connection closes, so the server's
 * in-flight accounting still sees the request end.
 */
export function upgradeWatch(req: IncomingMessage, res: Response): Promise<Response | undefined> {
  const httpRes = res as ServerResponse;
  const socket = req.socket;
  httpRes.detachSocket(socket);
  socket.once('close', () => httpRes.emit('close'));
  return webSocketServer().then(
    (wss) =>
      new Promise((resolve) => {
        if (socket.destroyed) return resolve(undefined);
        const refused = () => resolve(undefined);
        socket.once('close', refused);
        wss.handleUpgrade(req, socket, upgradeHead(req), (ws) => {
          socket.off('close', refused);
          resolve(new WebSocketStream(ws, socket) as unknown as Response);
        });
      }),
  );
}
