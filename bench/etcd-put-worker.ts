/**
 * Worker-thread body of the raw etcd baseline (etcd.ts): `concurrency` closed loops putting
 * 1 KiB values through one etcd3 client with its default options, as any Node program would,
 * each loop sending its next put when the previous one is acknowledged.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Etcd3 } from 'etcd3';
import { percentile } from './load.js';

export interface PutSpec {
  endpoint: string;
  concurrency: number;
  size: number;
  warmupMs: number;
  durationMs: number;
}

export interface PutResult {
  puts: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  firstError?: string;
  /** CPU (user + system) of this whole process over the run, in seconds (the worker runs in an otherwise idle process). */
  clientCpuSeconds: number;
}

const spec = workerData as PutSpec;
const client = new Etcd3({ hosts: spec.endpoint });
const value = Buffer.alloc(spec.size, 'x');
const latencies: number[] = [];
let errors = 0;
let firstError: string | undefined;
let seq = 0;

const cpu0 = process.cpuUsage();
const start = performance.now();
const measureFrom = start + spec.warmupMs;
const stopAt = measureFrom + spec.durationMs;

async function loop(): Promise<void> {
  while (performance.now() < stopAt) {
    const key = `/bench/raw/${seq++}`;
    const t0 = performance.now();
    try {
      await client.put(key).value(value);
    } catch (err) {
      errors++;
      firstError ??= (err as Error).message;
    }
    const t1 = performance.now();
    if (t0 >= measureFrom && t1 <= stopAt) latencies.push(t1 - t0);
  }
}

await Promise.all(Array.from({ length: spec.concurrency }, loop));
const cpu = process.cpuUsage(cpu0);
client.close();
const sorted = Float64Array.from(latencies).sort();
const result: PutResult = {
  puts: latencies.length,
  rps: (latencies.length - errors) / (spec.durationMs / 1000),
  p50: percentile(sorted, 50),
  p99: percentile(sorted, 99),
  errors,
  firstError,
  clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
};
parentPort?.postMessage(result);
