/**
 * Worker-thread body of the watch fan-out benchmark (watch-fanout.ts): watch streams
 * multiplexed over a few HTTP/2 sessions (one TLS connection each), so the cost per delivered
 * event is a frame and a newline count, and the server, not the client, is the bottleneck.
 *
 * Two of these run: a bulk one whose watchers only read and count their events, and a timed
 * one whose few watchers also record each event's resourceVersion and arrival time. The timed
 * thread is lightly loaded, so its arrival times are not delayed behind the bulk watchers' work
 * (a byte search per event was the client's largest cost in a profile).
 */
import http2 from 'node:http2';
import { parentPort, workerData } from 'node:worker_threads';
import type { TlsMaterial } from './load.js';

export interface FanoutWorkerSpec {
  baseUrl: string;
  tls: TlsMaterial;
  path: string;
  sessions: number;
  /** Record each event's resourceVersion and arrival time. */
  timed: boolean;
  /** Never read: each watch stops reading once its response head arrived (a stuck client). */
  paused?: boolean;
}

/** Main -> worker: open `count` more watches and answer `{kind: 'opened'}` once all have answered 200. */
export interface FanoutOpen {
  kind: 'open';
  count: number;
}

/** Main -> worker once writing is over: acks as [rv, ackMs] pairs, and the measured window. */
export interface FanoutFinish {
  kind: 'finish';
  acks: Float64Array;
  fromMs: number;
  toMs: number;
}

export interface FanoutWorkerResult {
  watchers: number;
  /** Events (all of this thread's watchers) whose arrival fell inside the window. */
  eventsInWindow: number;
  /** Timed only: deliveries matched to a write acknowledged inside the window, and how many were expected. */
  matched: number;
  expected: number;
  /** Timed only: ms from write acknowledged to event received (< 0 when the event came first). */
  p50: number;
  p99: number;
  max: number;
  /** Streams that ended or failed before the end (a server closing slow watchers shows here). */
  closedEarly: number;
  errorLines: number;
}

const spec = workerData as FanoutWorkerSpec;
const RV = Buffer.from('"resourceVersion":"');
// performance.now() is cheap but counts from this thread's start; process.hrtime (the writer's
// clock) reads the same monotonic clock, so one offset maps the first onto the second.
const offset = Number(process.hrtime.bigint()) / 1e6 - performance.now();
/** Events received per 10 ms of performance.now(). */
const BIN_MS = 10;
let bins = new Float64Array(60_000);
let rvs = new Float64Array(1 << 18);
let times = new Float64Array(1 << 18);
let count = 0;
let watchers = 0;
let closedEarly = 0;
let errorLines = 0;
let finishing = false;

const grow = (a: Float64Array, min: number) => {
  const b = new Float64Array(Math.max(min, a.length * 2));
  b.set(a);
  return b;
};

/** Adds `lines` events received at `t` (performance.now()) to its bin. */
function countAt(t: number, lines: number): void {
  const bin = (t / BIN_MS) | 0;
  if (bin >= bins.length) bins = grow(bins, bin + 1);
  bins[bin] = (bins[bin] ?? 0) + lines;
}

/** Newlines in a chunk: events, whatever the chunk boundaries. */
function countLines(chunk: Buffer): number {
  let lines = 0;
  const last = chunk.length - 1;
  // Most chunks are exactly one event: stop at a newline that ends the chunk instead of searching again.
  for (let nl = chunk.indexOf(10); nl >= 0; nl = nl === last ? -1 : chunk.indexOf(10, nl + 1)) lines++;
  return lines;
}

/** Records the resourceVersion of the line buf[start, end) received at t (hrtime ms). */
function onLine(buf: Buffer, start: number, end: number, t: number): void {
  const at = buf.indexOf(RV, start);
  // `{"type":"E...`: an ERROR line (e.g. 410) is counted, never timed.
  if (at < 0 || at >= end || buf[start + 9] === 0x45) {
    errorLines++;
    return;
  }
  let rv = 0;
  for (let i = at + RV.length; i < end; i++) {
    const c = buf[i] ?? 0;
    if (c < 48 || c > 57) break;
    rv = rv * 10 + (c - 48);
  }
  if (count === rvs.length) {
    rvs = grow(rvs, 0);
    times = grow(times, 0);
  }
  rvs[count] = rv;
  times[count++] = t;
}

function openWatch(session: http2.ClientHttp2Session): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': spec.path, accept: 'application/json' });
    let rest: Buffer | undefined;
    stream.on('response', (headers) => {
      const status = Number(headers[':status']);
      if (status === 200) resolve();
      else reject(new Error(`watch answered ${status}`));
    });
    if (spec.paused) {
      // No 'data' listener: received bytes wait in the stream, its window closes, the server's queue fills.
      stream.pause();
      stream.on('error', () => {});
      stream.on('close', () => {
        if (!finishing) closedEarly++;
      });
      return;
    }
    stream.on('data', (chunk: Buffer) => {
      // One clock read per chunk: every line in it arrived at the same moment.
      const t = performance.now();
      if (!spec.timed) {
        countAt(t, countLines(chunk));
        return;
      }
      const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
      let at = 0;
      let lines = 0;
      for (let nl = buf.indexOf(10, at); nl >= 0; nl = buf.indexOf(10, at)) {
        onLine(buf, at, nl, t + offset);
        lines++;
        at = nl + 1;
      }
      countAt(t, lines);
      rest = at < buf.length ? Buffer.from(buf.subarray(at)) : undefined;
    });
    stream.on('error', reject);
    stream.on('close', () => {
      if (!finishing) closedEarly++;
    });
  });
}

async function connect(): Promise<http2.ClientHttp2Session> {
  if (spec.paused) {
    // Default (64 KiB) windows, as any client that stops reading.
    const session = http2.connect(spec.baseUrl, { ...spec.tls });
    await new Promise<void>((resolve, reject) => {
      session.once('connect', () => resolve());
      session.once('error', reject);
    });
    session.on('error', () => {});
    return session;
  }
  const session = http2.connect(spec.baseUrl, {
    ...spec.tls,
    // Large windows: a watcher that reads promptly never waits for a WINDOW_UPDATE round trip.
    settings: { initialWindowSize: 1 << 20 },
  });
  await new Promise<void>((resolve, reject) => {
    session.once('connect', () => resolve());
    session.once('error', reject);
  });
  session.setLocalWindowSize(64 << 20);
  session.on('error', () => {});
  return session;
}

/** The result once writing is over; stops every watch first. */
function finish(msg: FanoutFinish): FanoutWorkerResult {
  finishing = true;
  for (const s of sessions) s.destroy();
  let eventsInWindow = 0;
  for (let b = 0; b < bins.length; b++) {
    const t = b * BIN_MS + offset;
    if (t >= msg.fromMs && t + BIN_MS <= msg.toMs) eventsInWindow += bins[b] ?? 0;
  }
  const ackOf = new Map<number, number>();
  for (let i = 0; i < msg.acks.length; i += 2) {
    const ack = msg.acks[i + 1] ?? 0;
    if (ack >= msg.fromMs && ack < msg.toMs) ackOf.set(msg.acks[i] ?? 0, ack);
  }
  const lat = new Float64Array(count);
  let matched = 0;
  for (let i = 0; i < count; i++) {
    const ack = ackOf.get(rvs[i] ?? 0);
    if (ack !== undefined) lat[matched++] = (times[i] ?? 0) - ack;
  }
  const sorted = lat.subarray(0, matched).sort();
  const pick = (p: number) => (matched === 0 ? 0 : (sorted[Math.max(0, Math.ceil((p / 100) * matched) - 1)] ?? 0));
  const expected = spec.timed ? ackOf.size * watchers : 0;
  return { watchers, eventsInWindow, matched, expected, p50: pick(50), p99: pick(99), max: pick(100), closedEarly, errorLines };
}

const sessions = await Promise.all(Array.from({ length: spec.sessions }, connect));
let nextSession = 0;
parentPort?.on('message', (msg: FanoutOpen | FanoutFinish) => {
  if (msg.kind === 'finish') {
    parentPort?.postMessage({ kind: 'result', result: finish(msg) });
    return;
  }
  const opening = Array.from({ length: msg.count }, () => openWatch(sessions[nextSession++ % sessions.length] as http2.ClientHttp2Session));
  watchers += msg.count;
  Promise.all(opening).then(
    () => parentPort?.postMessage({ kind: 'opened' }),
    (err: Error) => parentPort?.postMessage({ kind: 'failed', message: err.message }),
  );
});
parentPort?.postMessage({ kind: 'connected' });
