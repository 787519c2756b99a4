/**
 * Shared pieces of the watch-cache benchmarks (cache.ts): the server child (orch-server.ts),
 * its memory and CPU as seen from outside, 1 KiB ConfigMaps, bulk creation in a worker thread,
 * and small statistics helpers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type Child, cpuSeconds, spawnNode, stopChild, waitForLine } from './children.js';

export { cpuSeconds };
import { requestOnce } from './http-client.js';
import { percentile, type TlsMaterial } from './load.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));

/** A running server child and how to reach it. */
export interface Server {
  child: Child;
  pid: number;
  url: string;
  tls: TlsMaterial;
  dataDir: string;
}

/** Starts orch-server.js on dataDir (args: orch-server.ts's flags) and waits for its READY line. */
export async function startServer(dataDir: string, timeoutMs = 60_000, args: string[] = []): Promise<Server> {
  // BENCH_SERVER_FLAGS adds node flags to the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`.
  const extra = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawnNode([...extra, '--expose-gc', join(HERE, 'orch-server.js'), dataDir, ...args], ROOT);
  const ready = JSON.parse((await waitForLine(child, (l) => l.startsWith('READY '), timeoutMs)).slice(6));
  const pid = child.proc.pid;
  if (pid === undefined) throw new Error('server child has no pid');
  return { child, pid, url: ready.url, tls: { ca: ready.caPem, cert: ready.certPem, key: ready.keyPem }, dataDir };
}

/** Stops the server child gracefully (SIGTERM), so its store is closed cleanly. */
export function stopServer(server: Server): Promise<void> {
  return stopChild(server.child, 15_000);
}

export interface MemorySample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

/** The server's memory right after a full GC in the child (SIGUSR2, see orch-server.ts). */
export async function serverMemory(server: Server): Promise<MemorySample> {
  const line = waitForLine(server.child, (l) => l.startsWith('MEM '), 30_000);
  server.child.proc.kill('SIGUSR2');
  return JSON.parse((await line).slice(4)) as MemorySample;
}

/**
 * CPU seconds all processes on the machine have used so far (from /proc/stat). Over a window,
 * minus this benchmark's own processes, it shows how much other work competed for the cores.
 */
export function machineCpuSeconds(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: everything but idle and iowait was work.
  const busy = fields.slice(0, 8).reduce((a, b, i) => (i === 3 || i === 4 ? a : a + b), 0);
  return busy / 100;
}

/** A ConfigMap whose request JSON is `size` bytes, labelled app=bench; its payload starts with `seq` (so writes differ). */
export function configMapBody(name: string, size = 1024, seq = ''): string {
  const doc = (payload: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { payload } });
  return doc(seq + 'x'.repeat(Math.max(0, size - doc(seq).length)));
}

/** Creates a namespace through the API (201, or 409 when it exists). */
export async function createNamespace(server: Server, name: string): Promise<void> {
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const reply = await requestOnce(`${server.url}/api/v1/namespaces`, { method: 'POST', body, tls: server.tls });
  if (reply.status !== 201 && reply.status !== 409) throw new Error(`creating namespace ${name}: ${reply.status} ${reply.body.slice(0, 300)}`);
}

export interface BulkSpec {
  baseUrl: string;
  tls: TlsMaterial;
  namespace: string;
  /** Names are `<prefix><n>` with n zero-padded to 6 digits, for n in [from, from + count). */
  prefix: string;
  from: number;
  count: number;
  concurrency: number;
  size: number;
}

export interface BulkResult {
  created: number;
  errors: number;
  ms: number;
  firstError?: string;
}

/** Creates ConfigMaps through the API from a worker thread (bulk-create-worker.ts). */
export function bulkCreate(spec: BulkSpec): Promise<BulkResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./bulk-create-worker.js', import.meta.url), { workerData: spec });
    let settled = false;
    worker.once('message', (r: BulkResult) => {
      settled = true;
      void worker.terminate();
      if (r.errors > 0) reject(new Error(`bulk create: ${r.errors} errors, first: ${r.firstError}`));
      else resolve(r);
    });
    worker.once('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`bulk-create worker exited with code ${code}`));
    });
  });
}

/** Median of a sample (0 when empty). */
export function median(xs: number[]): number {
  return quantile(xs, 50);
}

/** Nearest-rank percentile of an unsorted sample. */
export function quantile(xs: number[] | Float64Array, p: number): number {
  return percentile(Float64Array.from(xs).sort(), p);
}

export const round1 = (x: number) => Math.round(x * 10) / 10;
export const round2 = (x: number) => Math.round(x * 100) / 100;

/** Prints rows as an aligned table (first column left-aligned, the rest right-aligned). */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}
