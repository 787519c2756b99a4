/**
 * The /healthz prober: a worker thread with its own keep-alive connection that asks /healthz
 * every few milliseconds for the whole run and records how long each answer took. Running in
 * its own thread, it measures the server's responsiveness, not the runner's. A probe's time is
 * its wall-clock wait less the time the server's main thread and the prober's thread waited for
 * a core in it: on a machine busy with other work that wait is not the server holding its loop
 * (test/helpers/core-wait.ts).
 */
import https from 'node:https';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { coreWaitMs, heldMs } from '../helpers/core-wait.js';
import type { ServerInfo } from './client.js';

export interface SlowProbe {
  /** Wall-clock ms (performance.timeOrigin + now) when the probe was sent. */
  start: number;
  /** How long the server held its loop during the probe: the wait less the waits for a core. */
  ms: number;
  /** The wait in wall-clock time. */
  wallMs: number;
  /** Set when the probe got no 200 (error text or status). */
  error?: string;
}

export interface ProbeReport {
  count: number;
  /** Longest hold (SlowProbe.ms) and longest wall-clock wait. */
  maxMs: number;
  maxWallMs: number;
  p99Ms: number;
  /** Probes over the threshold or failed, in order. */
  slow: SlowProbe[];
}

/** Often enough to catch any stall over 100 ms, rarely enough not to load the server itself. */
const INTERVAL_MS = 50;
const PROBE_TIMEOUT_MS = 10_000;

/** Wall-clock milliseconds with sub-ms precision, comparable across threads. */
export function now(): number {
  return performance.timeOrigin + performance.now();
}

/** Handle to a running prober. */
export interface Prober {
  /** Probe this server (after a restart); stops probing while undefined. */
  target(server: ServerInfo | undefined): void;
  report(): Promise<ProbeReport>;
  stop(): Promise<void>;
}

/** Starts the prober thread; probes over thresholdMs are kept for the report. */
export function startProber(server: ServerInfo, thresholdMs: number): Prober {
  const worker = new Worker(new URL(import.meta.url), { workerData: { thresholdMs } });
  worker.postMessage({ type: 'target', server });
  return {
    target: (s) => worker.postMessage({ type: 'target', server: s }),
    report: () =>
      new Promise((resolve) => {
        worker.once('message', (msg: ProbeReport) => resolve(msg));
        worker.postMessage({ type: 'report' });
      }),
    stop: async () => {
      await worker.terminate();
    },
  };
}

/** What the server's main thread and this one have waited for a core so far (ms). */
function coreWaits(s: ServerInfo): number | undefined {
  const server = s.pid === undefined ? undefined : coreWaitMs(s.pid);
  const own = coreWaitMs();
  return server === undefined || own === undefined ? undefined : server + own;
}

function probeLoop(thresholdMs: number): void {
  const port = parentPort!;
  let server: ServerInfo | undefined;
  let agent: https.Agent | undefined;
  let generation = 0;
  const latencies: number[] = [];
  const slow: SlowProbe[] = [];
  let maxMs = 0;
  let maxWallMs = 0;
  port.on('message', (msg: { type: string; server?: ServerInfo }) => {
    if (msg.type === 'target') {
      agent?.destroy();
      server = msg.server;
      agent = server ? new https.Agent({ keepAlive: true, maxSockets: 1, ca: server.caPem, cert: server.adminCertPem, key: server.adminKeyPem }) : undefined;
      generation++;
    }
    if (msg.type === 'report') {
      const sorted = [...latencies].sort((a, b) => a - b);
      port.postMessage({ count: latencies.length, maxMs, maxWallMs, p99Ms: sorted[Math.floor(sorted.length * 0.99)] ?? 0, slow } satisfies ProbeReport);
    }
  });
  const once = (s: ServerInfo, a: https.Agent): Promise<{ ms: number; wallMs: number; error?: string }> =>
    new Promise((resolve) => {
      const url = new URL(s.url);
      const started = now();
      const waitBefore = coreWaits(s);
      const done = (error?: string) => {
        const wallMs = now() - started;
        resolve({ ms: heldMs(wallMs, waitBefore, coreWaits(s)), wallMs, error });
      };
      const req = https.request({ host: url.hostname, port: url.port, path: '/healthz', agent: a, timeout: PROBE_TIMEOUT_MS }, (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode === 200 ? undefined : `status ${res.statusCode}`));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
      req.end();
    });
  const tick = async () => {
    if (server && agent) {
      const gen = generation;
      const start = now();
      const r = await once(server, agent);
      // A probe that spans a restart measures the restart, not the server.
      if (gen === generation) {
        latencies.push(r.ms);
        if (r.ms > maxMs) maxMs = r.ms;
        if (r.wallMs > maxWallMs) maxWallMs = r.wallMs;
        if (r.ms > thresholdMs || r.error) slow.push({ start, ms: r.ms, wallMs: r.wallMs, error: r.error });
      }
    }
    setTimeout(tick, INTERVAL_MS);
  };
  void tick();
}

if (!isMainThread && parentPort) {
  const { workerData } = await import('node:worker_threads');
  probeLoop((workerData as { thresholdMs: number }).thresholdMs);
}
