/**
 * Watch fan-out benchmark: `watchers` watches of one resource (HTTP/2 streams in two worker
 * threads, see watch-fanout-worker.ts) while this thread writes 1 KiB ConfigMaps at a fixed
 * rate (alternating creates and unconditional updates, open loop: a slow server makes writes
 * late, not fewer). Measures events delivered per second, latency from write acknowledged to
 * event received, and server CPU per delivered event (from /proc/<pid>/stat of the server).
 *
 * The server publishes a commit's watch events before it answers the write, so an event can
 * arrive before its write's acknowledgement: early deliveries show as latencies below zero.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { bulkCreate, configMapBody, cpuSeconds, machineCpuSeconds, type Server, serverMemory, startServer, stopServer } from './cache-harness.js';
import { requestOnce } from './http-client.js';
import { encodeRequest, RawConnection } from './raw-client.js';
import type { FanoutFinish, FanoutOpen, FanoutWorkerResult, FanoutWorkerSpec } from './watch-fanout-worker.js';

export interface FanoutOptions {
  watchers: number;
  /** HTTP/2 sessions (TLS connections) the untimed watch streams are spread over. */
  sessions: number;
  /** Watchers whose latencies are recorded (in their own thread and session). */
  timedWatchers: number;
  writesPerSecond: number;
  warmupMs: number;
  durationMs: number;
  /** Watchers that never read (in their own thread and sessions); default 0. */
  nonReaders?: number;
  /** HTTP/2 sessions the non-readers are spread over; default 4. */
  nonReaderSessions?: number;
}

export interface FanoutResult {
  /** Reading watchers (timed included). */
  watchers: number;
  nonReaders: number;
  /** Server RSS once the pool is written, before any watch (bytes). */
  serverRssIdleBytes: number;
  /** Highest server RSS sampled every 100 ms from the first watch to the end of the writes. */
  serverRssPeakBytes: number;
  /** Server RSS after a full GC, before any watch and at the end of the writes (watches still open). */
  serverRssIdleAfterGcBytes: number;
  serverRssEndAfterGcBytes: number;
  timedWatchers: number;
  writesPerSecond: number;
  /** Writes acknowledged inside the window, per second (the offered rate if the server keeps up). */
  ackedWritesPerSecond: number;
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Timed watchers' deliveries of windowed writes received / expected (writes x timed watchers). */
  deliveredRatio: number;
  serverCpuUsPerEvent: number;
  /** Server CPU seconds per second of the window (1 = one core saturated). */
  serverCpuLoad: number;
  /** Event-loop utilisation of the bulk watchers' thread over the window (near 1: client-bound). */
  clientLoopUtilization: number;
  /** Cores busy with other processes than the server and this benchmark during the window (noise). */
  otherCpuLoad: number;
  /** Write latency (due by the schedule -> acknowledged) under fan-out. */
  writeP99Ms: number;
  closedEarly: number;
  /** Non-readers the server ended before the run was over (seen by the client as a closed stream). */
  nonReadersClosed: number;
  writeErrors: number;
  firstWriteError?: string;
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const NAMESPACE = 'default';
const RV_PATTERN = /"resourceVersion":"(\d+)"/;
/** Objects the updates cycle through, created before the watches start. */
const POOL = 100;
/** Watches are opened in this many rounds, alternating threads, so timed watchers sit at every position of the server's fan-out order. */
const OPEN_ROUNDS = 10;

/** A watch worker thread and a way to wait for its next message (rejects if it dies). */
function startWatchThread(spec: FanoutWorkerSpec) {
  const worker = new Worker(new URL('./watch-fanout-worker.js', import.meta.url), { workerData: spec });
  const failed = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`watch worker exited with code ${code}`)));
  });
  failed.catch(() => {});
  const next = async <T extends { kind: string }>(): Promise<T> => {
    const msg = await Promise.race([new Promise<T>((resolve) => worker.once('message', resolve)), failed]);
    if (msg.kind === 'failed') throw new Error(`opening watches: ${(msg as unknown as { message: string }).message}`);
    return msg;
  };
  const open = async (count: number) => {
    const opened = next();
    worker.postMessage({ kind: 'open', count } satisfies FanoutOpen);
    await opened;
  };
  const finish = async (msg: FanoutFinish): Promise<FanoutWorkerResult> => {
    const result = next<{ kind: 'result'; result: FanoutWorkerResult }>();
    worker.postMessage(msg);
    return (await result).result;
  };
  return { worker, next, open, finish };
}

/** Runs the fan-out benchmark on a fresh server in `work`; the server is stopped before it returns. */
export async function benchWatchFanout(work: string, opts: FanoutOptions): Promise<FanoutResult> {
  const dataDir = join(work, 'fanout-data');
  await mkdir(dataDir);
  const server = await startServer(dataDir);
  try {
    return await fanoutOn([server], opts);
  } finally {
    await stopServer(server);
  }
}

/**
 * The fan-out benchmark on running replicas of one cluster: writes go through the first, the
 * untimed watchers are split evenly over all of them, the timed ones watch the last (with
 * several replicas: one that learns of the writes only from the shared store). Memory and CPU
 * figures are the first replica's.
 */
export async function fanoutOn(replicas: Server[], opts: FanoutOptions): Promise<FanoutResult> {
  const server = replicas[0];
  const watched = replicas[replicas.length - 1];
  if (!server || !watched) throw new Error('fan-out needs a server');
  const threads: Worker[] = [];
  try {
    await bulkCreate({ baseUrl: server.url, tls: server.tls, namespace: NAMESPACE, prefix: 'pool-', from: 0, count: POOL, concurrency: 8, size: 1024 });
    const list = await requestOnce(`${server.url}/api/v1/namespaces/${NAMESPACE}/configmaps?limit=1`, { tls: server.tls });
    const startRv = RV_PATTERN.exec(list.body)?.[1];
    if (list.status !== 200 || !startRv) throw new Error(`listing configmaps: ${list.status} ${list.body.slice(0, 200)}`);
    // From the current revision (no synthetic ADDED of the pool), a timeout that outlives the
    // run, no bookmarks (not measured).
    const path = `/api/v1/namespaces/${NAMESPACE}/configmaps?watch=true&resourceVersion=${startRv}&timeoutSeconds=3600`;
    const serverRssIdleAfterGcBytes = (await serverMemory(server)).rss;
    const serverRssIdleBytes = rssBytes(server.pid);
    let serverRssPeakBytes = serverRssIdleBytes;
    const rssSampler = setInterval(() => {
      serverRssPeakBytes = Math.max(serverRssPeakBytes, rssBytes(server.pid));
    }, 100);
    const bulks = replicas.map((r) =>
      startWatchThread({ baseUrl: r.url, tls: r.tls, path, sessions: Math.max(1, Math.round(opts.sessions / replicas.length)), timed: false }),
    );
    const timed = startWatchThread({ baseUrl: watched.url, tls: watched.tls, path, sessions: 1, timed: true });
    const nonReaders = opts.nonReaders ?? 0;
    const stuck =
      nonReaders > 0
        ? startWatchThread({ baseUrl: server.url, tls: server.tls, path, sessions: opts.nonReaderSessions ?? 4, timed: false, paused: true })
        : undefined;
    threads.push(...bulks.map((b) => b.worker), timed.worker, ...(stuck ? [stuck.worker] : []));
    await Promise.all([...bulks.map((b) => b.next()), timed.next(), stuck?.next()]);
    const bulkCount = opts.watchers - opts.timedWatchers;
    for (let round = 0; round < OPEN_ROUNDS; round++) {
      const share = (n: number) => Math.floor((n * (round + 1)) / OPEN_ROUNDS) - Math.floor((n * round) / OPEN_ROUNDS);
      for (const [i, bulk] of bulks.entries()) {
        const split = (n: number) => Math.floor((n * (i + 1)) / bulks.length) - Math.floor((n * i) / bulks.length);
        await bulk.open(split(share(bulkCount)));
      }
      await timed.open(share(opts.timedWatchers));
      if (stuck) await stuck.open(share(nonReaders));
    }

    const url = new URL(server.url);
    // Enough connections that writes waiting behind a fan-out burst do not hold back the schedule.
    const conns = Array.from({ length: 64 }, () => new RawConnection({ host: url.hostname, port: Number(url.port), ...server.tls }));
    const writes = await writeLoad(conns, url.host, opts, server.pid, bulks[0]?.worker ?? timed.worker);
    clearInterval(rssSampler);
    serverRssPeakBytes = Math.max(serverRssPeakBytes, rssBytes(server.pid));
    const serverRssEndAfterGcBytes = (await serverMemory(server)).rss;
    for (const c of conns) c.close();
    // Deliveries of the last windowed writes may still be in flight.
    await new Promise((r) => setTimeout(r, 1500));

    const acks = new Float64Array(writes.acks.length * 2);
    writes.acks.forEach(([rv, ack], i) => {
      acks[2 * i] = rv;
      acks[2 * i + 1] = ack;
    });
    const finish: FanoutFinish = { kind: 'finish', acks, fromMs: writes.fromMs, toMs: writes.toMs };
    const [t, n, ...bs] = await Promise.all([timed.finish(finish), stuck?.finish(finish), ...bulks.map((b) => b.finish(finish))]);
    const sum = (f: (r: FanoutWorkerResult) => number) => bs.reduce((a, r) => a + f(r), 0);
    const b = { watchers: sum((r) => r.watchers), eventsInWindow: sum((r) => r.eventsInWindow), closedEarly: sum((r) => r.closedEarly) };
    const seconds = (writes.toMs - writes.fromMs) / 1000;
    const events = b.eventsInWindow + t.eventsInWindow;
    const ackedInWindow = writes.acks.filter(([, ack]) => ack >= writes.fromMs && ack < writes.toMs).length;
    return {
      watchers: b.watchers + t.watchers,
      nonReaders: n?.watchers ?? 0,
      serverRssIdleBytes,
      serverRssPeakBytes,
      serverRssIdleAfterGcBytes,
      serverRssEndAfterGcBytes,
      timedWatchers: t.watchers,
      writesPerSecond: opts.writesPerSecond,
      ackedWritesPerSecond: ackedInWindow / seconds,
      eventsPerSecond: events / seconds,
      p50Ms: t.p50,
      p99Ms: t.p99,
      maxMs: t.max,
      deliveredRatio: t.expected === 0 ? 0 : t.matched / t.expected,
      serverCpuUsPerEvent: events === 0 ? 0 : (writes.cpuSeconds * 1e6) / events,
      serverCpuLoad: writes.cpuSeconds / seconds,
      clientLoopUtilization: writes.clientElu,
      otherCpuLoad: Math.max(0, writes.otherCpuSeconds / seconds),
      writeP99Ms: writes.writeP99Ms,
      closedEarly: b.closedEarly + t.closedEarly,
      nonReadersClosed: n?.closedEarly ?? 0,
      writeErrors: writes.errors,
      firstWriteError: writes.firstError,
    };
  } finally {
    await Promise.all(threads.map((w) => w.terminate()));
  }
}

/** Resident set size of a process, from /proc/<pid>/status (no GC forced: what the machine sees). */
export function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

interface WriteLoadResult {
  /** [resourceVersion, acknowledged at (ms, monotonic)] of every successful write. */
  acks: Array<[number, number]>;
  fromMs: number;
  toMs: number;
  cpuSeconds: number;
  otherCpuSeconds: number;
  clientElu: number;
  writeP99Ms: number;
  errors: number;
  firstError?: string;
}

/** Writes at the configured rate for warmup + duration; CPU and loop use are read at the window's edges. */
async function writeLoad(conns: RawConnection[], host: string, opts: FanoutOptions, pid: number, watcher: Worker): Promise<WriteLoadResult> {
  const acks: Array<[number, number]> = [];
  const writeLatencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const free = [...conns];
  const queue: number[] = [];
  const interval = 1000 / opts.writesPerSecond;
  const total = Math.floor(((opts.warmupMs + opts.durationMs) / 1000) * opts.writesPerSecond);
  const start = nowMs();
  const fromMs = start + opts.warmupMs;
  const toMs = fromMs + opts.durationMs;
  let inFlight = 0;

  const send = async (i: number, conn: RawConnection) => {
    // Even writes create fan-N; odd ones replace a pool object (PUT without resourceVersion is
    // unconditional), never one whose create may still be in flight on another connection. The
    // payload carries i: an update that changes nothing is not written and sends no event.
    const name = i % 2 === 0 ? `fan-${i >> 1}` : `pool-${String((i >> 1) % POOL).padStart(6, '0')}`;
    const path = `/api/v1/namespaces/${NAMESPACE}/configmaps${i % 2 === 0 ? '' : `/${name}`}`;
    const request = encodeRequest(i % 2 === 0 ? 'POST' : 'PUT', path, host, configMapBody(name, 1024, `${i}-`));
    // Open loop: a write's latency counts from when it was due, including any wait for a connection.
    const due = start + i * interval;
    try {
      const status = await conn.send(request);
      const acked = nowMs();
      const body = conn.lastResponse.toString('utf8');
      const rv = RV_PATTERN.exec(body);
      if ((status === 201 || status === 200) && rv) {
        acks.push([Number(rv[1]), acked]);
        if (acked >= fromMs && acked < toMs) writeLatencies.push(acked - due);
      } else {
        errors++;
        firstError ??= `${path} -> ${status}: ${body.split('\r\n\r\n').slice(1).join('').slice(0, 200)}`;
      }
    } catch (err) {
      errors++;
      firstError ??= `${path}: ${(err as Error).message}`;
    }
  };
  const dispatch = (i: number, conn: RawConnection) => {
    inFlight++;
    void send(i, conn).finally(() => {
      inFlight--;
      const waiting = queue.shift();
      if (waiting === undefined) free.push(conn);
      else dispatch(waiting, conn);
    });
  };

  // CPU of the server, of this process (all its threads) and of the whole machine, at the window's edges.
  const sample = () => ({ server: cpuSeconds(pid), own: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6, machine: machineCpuSeconds() });
  let from = sample();
  let to = from;
  let eluFrom: ReturnType<typeof watcher.performance.eventLoopUtilization> | undefined;
  let elu = 0;
  setTimeout(() => {
    from = sample();
    eluFrom = watcher.performance.eventLoopUtilization();
  }, fromMs - start);
  const windowEnd = new Promise<void>((resolve) =>
    setTimeout(() => {
      to = sample();
      elu = eluFrom ? watcher.performance.eventLoopUtilization(eluFrom).utilization : 0;
      resolve();
    }, toMs - start),
  );

  let next = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      // Every write that is due goes out now: the schedule does not slow down with the server.
      const due = Math.min(total, Math.floor((nowMs() - start) / interval) + 1);
      for (; next < due; next++) {
        const conn = free.pop();
        if (conn) dispatch(next, conn);
        else queue.push(next);
      }
      if (next >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  await windowEnd;
  while (inFlight > 0 || queue.length > 0) await new Promise((r) => setTimeout(r, 10));
  writeLatencies.sort((a, b) => a - b);
  const writeP99Ms = writeLatencies[Math.max(0, Math.ceil(writeLatencies.length * 0.99) - 1)] ?? 0;
  const cpu = to.server - from.server;
  const otherCpuSeconds = to.machine - from.machine - cpu - (to.own - from.own);
  return { acks, fromMs, toMs, cpuSeconds: cpu, otherCpuSeconds, clientElu: elu, writeP99Ms, errors, firstError };
}
