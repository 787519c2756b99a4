/**
 * A worker thread that POSTs ConfigMaps with 16–512 KiB bodies over a few keep-alive HTTP/1.1
 * connections and reports how many were answered 201. It runs on its own thread because a
 * client sharing the server's event loop never lets a request arrive while the previous
 * response is still draining, which is when a server's HTTP/1.1 reading goes wrong.
 */
import https from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';

export interface KeepAliveBodiesSpec {
  url: string;
  path: string;
  ca: string;
  cert: string;
  key: string;
  connections: number;
  requests: number;
}

export interface KeepAliveBodiesResult {
  created: number;
  /** Other statuses and transport errors (ECONNRESET...), by code, with their counts. */
  failures: Record<string, number>;
  /** Distinct TCP connections the agent opened (keep-alive means about `connections`). */
  socketsOpened: number;
  bytesSent: number;
}

const spec = workerData as KeepAliveBodiesSpec;
const url = new URL(spec.url);
const agent = new https.Agent({ keepAlive: true, maxSockets: spec.connections, ca: spec.ca, cert: spec.cert, key: spec.key });
const result: KeepAliveBodiesResult = { created: 0, failures: {}, socketsOpened: 0, bytesSent: 0 };
const fail = (code: string) => {
  result.failures[code] = (result.failures[code] ?? 0) + 1;
};

function post(i: number): Promise<void> {
  const size = 16 * 1024 + ((i * 7919) % (496 * 1024));
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `body-${i}` }, data: { payload: 'x'.repeat(size) } });
  result.bytesSent += body.length;
  return new Promise((resolve) => {
    const req = https.request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: spec.path,
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 201) result.created++;
          else fail(String(res.statusCode));
          resolve();
        });
        res.on('error', (e: NodeJS.ErrnoException) => {
          fail(e.code ?? e.message);
          resolve();
        });
      },
    );
    req.on('socket', (s) => {
      if (!(s as { counted?: boolean }).counted) {
        (s as { counted?: boolean }).counted = true;
        result.socketsOpened++;
      }
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      fail(e.code ?? e.message);
      resolve();
    });
    req.end(body);
  });
}

let next = 0;
await Promise.all(
  Array.from({ length: spec.connections }, async () => {
    while (next < spec.requests) await post(next++);
  }),
);
agent.destroy();
parentPort?.postMessage(result);
