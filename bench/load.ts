/**
 * The load generator's API: runs a closed-loop HTTP/1.1 load in a worker thread, so the
 * generator never shares an event loop with the orchestrating script (the server under test
 * runs in its own child process).
 */
import { Worker } from 'node:worker_threads';

export interface TlsMaterial {
  ca: string;
  cert?: string;
  key?: string;
}

export interface LoadSpec {
  /** `https://host:port` */
  baseUrl: string;
  tls: TlsMaterial;
  method: 'GET' | 'POST' | 'PUT';
  /** Request path; `{n}` becomes the request's sequence number (modulo `rotate` when set). */
  path: string;
  rotate?: number;
  /** Request body (JSON); `{n}` is replaced like in `path`, `{seq}` by the sequence number itself (never rotated). */
  body?: string;
  /** An Authorization header sent with every request (bearer tokens). */
  authorization?: string;
  /** Status every request must answer with; others are counted as errors. */
  expectStatus: number;
  /** Concurrent keep-alive connections, each one looping request -> response. */
  concurrency: number;
  /**
   * `raw` (default): the minimal client of raw-client.ts, cheap enough that the server is the
   * bottleneck; `https`: node:https with a keep-alive Agent, for comparison.
   */
  client?: 'raw' | 'https';
  /** Not measured: connections are set up and the JIT warms. */
  warmupMs: number;
  durationMs: number;
}

export interface LoadResult {
  /** Requests completed inside the measured window (any status); `rps` counts only expected ones. */
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  /** Response status -> count, errors included, for the report. */
  statuses: Record<string, number>;
  firstError?: string;
}

/** Runs `spec` in a fresh worker thread; resolves after warmup + duration + the in-flight tail. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.js', import.meta.url), { workerData: spec });
    let settled = false;
    worker.once('message', (result: LoadResult) => {
      settled = true;
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`load worker exited with code ${code} before reporting`));
    });
  });
}

/** Percentile of an ascending-sorted sample by nearest rank; 0 for an empty sample. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}
