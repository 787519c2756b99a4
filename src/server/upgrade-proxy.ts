/**
 * The upgrade half of upstream's upgrade-aware proxy: the client's upgrade request (SPDY or
 * WebSocket: exec, attach, portforward, a watch over WebSocket) is written to the backend as
 * it came, with the headers the caller chose, and once connected the bytes are piped both ways
 * until either side closes. The backend's own answer (101 or a refusal) reaches the client
 * unchanged. Dialing is bounded; its failure is the caller's error, answered as plain HTTP.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type net from 'node:net';
import { upgradeHead } from './websocket-watch.js';

/** How long dialing a backend may take (upstream's dialer: 30 s). */
export const DIAL_TIMEOUT_MS = 30_000;

export interface UpgradeTarget {
  url: URL;
  /** Headers to send besides Host, Connection and Upgrade (already filtered by the caller). */
  headers: Record<string, string | string[]>;
  /** Opens the connection (TCP or TLS), calling connected once it is ready for the request. */
  dial(connected: () => void): net.Socket;
}

/** True when req asks to upgrade its HTTP/1.1 connection. */
export function isUpgradeRequest(req: { headers: IncomingMessage['headers'] } & object): req is IncomingMessage {
  return 'socket' in req && typeof req.headers.upgrade === 'string' && req.headers.connection !== undefined && /upgrade/i.test(String(req.headers.connection));
}

/** Pipes an upgrade request to target; rejects with dialFailed's error when the backend cannot be reached. */
export function proxyUpgrade(req: IncomingMessage, res: ServerResponse, target: UpgradeTarget, dialFailed: (err: Error) => Error): Promise<void> {
  const { url } = target;
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => {
      clearTimeout(timer);
      reject(dialFailed(err));
    };
    const backend = target.dial(connected);
    const timer = setTimeout(() => backend.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })), DIAL_TIMEOUT_MS);
    backend.once('error', onError);
    function connected(): void {
      clearTimeout(timer);
      backend.off('error', onError);
      const client = req.socket;
      res.detachSocket(client);
      const head = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
      for (const [k, v] of Object.entries(target.headers)) {
        if (k === 'host') continue;
        for (const value of Array.isArray(v) ? v : [v]) head.push(`${k}: ${value}`);
      }
      head.push(`Connection: Upgrade`, `Upgrade: ${req.headers.upgrade}`);
      backend.write(`${head.join('\r\n')}\r\n\r\n`);
      const early = upgradeHead(req);
      if (early.length > 0) backend.write(early);
      backend.pipe(client);
      client.pipe(backend);
      const done = () => {
        backend.destroy();
        client.destroy();
        res.emit('close');
        resolve();
      };
      backend.once('close', done);
      client.once('close', done);
      backend.on('error', () => {});
      client.on('error', () => {});
    }
  });
}
