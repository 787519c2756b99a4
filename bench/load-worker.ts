/**
 * Worker-thread body of the load generator (see load.ts): `concurrency` closed loops, each on
 * its own keep-alive connection, sending the next request only when the previous answer has
 * been read completely.
 */
import { Agent, request } from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';
import { type LoadResult, type LoadSpec, percentile } from './load.js';
import { encodeRequest, RawConnection } from './raw-client.js';

const spec = workerData as LoadSpec;
const url = new URL(spec.baseUrl);
const host = url.hostname.replace(/^\[|\]$/g, '');
const port = Number(url.port);

const fill = (template: string | undefined, key: number, n = key): string | undefined =>
  template?.includes('{') ? template.replaceAll('{n}', String(key)).replaceAll('{seq}', String(n)) : template;
const varies = spec.path.includes('{n}') || (spec.body?.includes('{n}') ?? false) || (spec.body?.includes('{seq}') ?? false);
const fixedRequest = encodeRequest(spec.method, spec.path, url.host, spec.body, spec.authorization);

let latencies = new Float64Array(1 << 16);
let recorded = 0;
let errors = 0;
let firstError: string | undefined;
const statuses: Record<string, number> = {};
let seq = 0;

function record(ms: number, status: number): void {
  if (recorded === latencies.length) {
    const grown = new Float64Array(latencies.length * 2);
    grown.set(latencies);
    latencies = grown;
  }
  latencies[recorded++] = ms;
  statuses[status] = (statuses[status] ?? 0) + 1;
  if (status !== spec.expectStatus) errors++;
}

type Sender = (n: number) => Promise<number>;

/** A sender per loop over its own raw connection; -1 is a transport error. */
function rawSender(): { send: Sender; close: () => void } {
  const conn = new RawConnection({ host, port, ...spec.tls });
  const send: Sender = async (n) => {
    const key = spec.rotate ? n % spec.rotate : n;
    const bytes = varies ? encodeRequest(spec.method, fill(spec.path, key) ?? '', url.host, fill(spec.body, key, n), spec.authorization) : fixedRequest;
    try {
      const status = await conn.send(bytes);
      if (status !== spec.expectStatus && firstError === undefined) {
        const text = conn.lastResponse.toString('utf8').split('\r\n\r\n').slice(1).join('').slice(0, 300);
        firstError = `${spec.method} ${fill(spec.path, key)} -> ${status}: ${text}`;
      }
      return status;
    } catch (err) {
      firstError ??= `${spec.method} ${fill(spec.path, key)}: ${(err as Error).message}`;
      return -1;
    }
  };
  return { send, close: () => conn.close() };
}

/** One shared keep-alive Agent with `concurrency` sockets, as a typical Node client would use. */
function httpsSender(agent: Agent): Sender {
  return (n) => {
    const key = spec.rotate ? n % spec.rotate : n;
    const path = fill(spec.path, key) ?? '';
    const body = fill(spec.body, key, n);
    const headers: Record<string, string | number> = { accept: 'application/json' };
    if (spec.authorization !== undefined) headers.authorization = spec.authorization;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    return new Promise((resolve) => {
      const req = request({ host, port, path, method: spec.method, agent, headers }, (res) => {
        const status = res.statusCode ?? 0;
        if (status !== spec.expectStatus && firstError === undefined) {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            if (text.length < 300) text += c;
          });
          res.on('end', () => {
            firstError ??= `${spec.method} ${path} -> ${status}: ${text.slice(0, 300)}`;
            resolve(status);
          });
          return;
        }
        res.on('end', () => resolve(status));
        res.resume();
      });
      req.on('error', (err) => {
        firstError ??= `${spec.method} ${path}: ${err.message}`;
        resolve(-1);
      });
      req.end(body);
    });
  };
}

async function loop(send: Sender, measureFrom: number, stopAt: number): Promise<void> {
  while (performance.now() < stopAt) {
    const t0 = performance.now();
    const status = await send(seq++);
    const t1 = performance.now();
    // Only requests that both start and finish inside the window count, so the figure is not
    // inflated by the warmup or the tail.
    if (t0 >= measureFrom && t1 <= stopAt) record(t1 - t0, status);
    // A refused connection fails instantly: back off instead of spinning.
    if (status === -1) await new Promise((r) => setTimeout(r, 10));
  }
}

const start = performance.now();
const measureFrom = start + spec.warmupMs;
const stopAt = measureFrom + spec.durationMs;
if (spec.client === 'https') {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency, maxFreeSockets: spec.concurrency, ...spec.tls });
  const send = httpsSender(agent);
  await Promise.all(Array.from({ length: spec.concurrency }, () => loop(send, measureFrom, stopAt)));
  agent.destroy();
} else {
  const senders = Array.from({ length: spec.concurrency }, rawSender);
  await Promise.all(senders.map((s) => loop(s.send, measureFrom, stopAt)));
  for (const s of senders) s.close();
}

const sorted = latencies.slice(0, recorded).sort();
const result: LoadResult = {
  requests: recorded,
  errors,
  // Only expected answers count towards throughput: a server that fails fast must not look fast.
  rps: (recorded - errors) / (spec.durationMs / 1000),
  p50: percentile(sorted, 50),
  p99: percentile(sorted, 99),
  statuses,
  firstError,
};
parentPort?.postMessage(result);
