/**
 * The etcd client alone, through the etcd3 package and through orch's own node:http2 client
 * (src/storage/etcd/wire), against one etcd started here:
 * - CPU per call of the store's create Txn (a compare on the key's mod revision, a put of a
 *   1 KiB value), 32 calls in flight;
 * - CPU per event of a watch with previous values on a prefix while another process puts 1 KiB
 *   values under it one revision at a time (as a watch cache's etcd watch receives them).
 * CPU is this process's (process.cpuUsage), so the figure is the client's whatever else runs on
 * the machine. `node dist/bench/etcd-wire.js` (BENCH_CALLS, default 20000; BENCH_EVENTS, 10000).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Etcd3 } from 'etcd3';
import { EtcdClient } from '../src/storage/etcd/wire/etcd-client.js';
import { startEtcd } from '../test/helpers/etcd.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONCURRENCY = 32;
const VALUE = Buffer.alloc(1024, 'x');

type CreateTxn = (key: Buffer) => Promise<unknown>;

/** Runs n creates, CONCURRENCY at a time; returns CPU µs and wall ms per call. */
async function measure(n: number, create: CreateTxn, prefix: string): Promise<{ cpuUs: number; wallMs: number }> {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await create(Buffer.from(`${prefix}/${next++}`));
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { cpuUs: Math.round((cpu.user + cpu.system) / n), wallMs: (performance.now() - t0) / n };
}

/** Puts n 1 KiB values under prefix from a child process, 8 at a time (its CPU is not ours). */
async function putFromChild(endpoint: string, prefix: string, n: number): Promise<void> {
  const script = `import { Etcd3 } from 'etcd3';
const c = new Etcd3({ hosts: ${JSON.stringify(endpoint)} });
const v = Buffer.alloc(1024, 'w');
let i = 0;
await Promise.all(Array.from({ length: 8 }, async () => { while (i < ${n}) await c.put(${JSON.stringify(prefix)} + i++).value(v); }));
c.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: 'inherit' });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`the writer exited with ${code}`);
}

/** CPU µs per event of a watch (start: returns its stop) while n events are written. */
async function watchCost(endpoint: string, prefix: string, n: number, start: (onEvents: (count: number) => void) => () => void): Promise<number> {
  let seen = 0;
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  const stop = start((count) => {
    seen += count;
    if (seen >= n) done();
  });
  await new Promise((r) => setTimeout(r, 500));
  const cpu0 = process.cpuUsage();
  await Promise.all([putFromChild(endpoint, prefix, n), all]);
  const cpu = process.cpuUsage(cpu0);
  stop();
  return Math.round((cpu.user + cpu.system) / n);
}

const etcd = await startEtcd();
try {
  const etcd3 = new Etcd3({ hosts: etcd.endpoint });
  const wire = new EtcdClient({ servers: [etcd.endpoint], dialTimeoutMs: 10_000, callTimeoutMs: 10_000 });
  const clients: Record<string, CreateTxn> = {
    etcd3: (key) => etcd3.kv.txn({ compare: [{ key, target: 'Mod', result: 'Equal', mod_revision: 0 }], success: [{ request_put: { key, value: VALUE } }] }),
    wire: (key) => wire.txn({ compare: [{ key, target: 'Mod', result: 'Equal', mod_revision: 0 }], success: [{ request_put: { key, value: VALUE } }] }),
  };
  const results: Record<string, { cpuUs: number; wallMs: number }> = {};
  // A warm-up round each (JIT, connections), then the measured rounds alternating.
  for (const [name, create] of Object.entries(clients)) await measure(2000, create, `/warm/${name}`);
  for (const round of [1, 2])
    for (const [name, create] of Object.entries(clients)) {
      const r = await measure(CALLS / 2, create, `/bench/${name}/${round}`);
      const prev = results[name];
      results[name] = prev ? { cpuUs: (prev.cpuUs + r.cpuUs) / 2, wallMs: (prev.wallMs + r.wallMs) / 2 } : r;
    }
  for (const [name, r] of Object.entries(results))
    console.log(`${name.padEnd(6)} ${CALLS} create Txns: ${Math.round(r.cpuUs)} µs CPU per call, ${(1000 / r.wallMs).toFixed(0)} calls/s`);

  const range = (prefix: string) => ({ key: Buffer.from(prefix), range_end: Buffer.from(`${prefix.slice(0, -1)}0`) });
  const watches: Record<string, (prefix: string) => Promise<number>> = {
    etcd3: (prefix) =>
      watchCost(etcd.endpoint, prefix, EVENTS, (onEvents) => {
        const w = etcd3.watch().prefix(prefix).withPreviousKV().watcher();
        w.on('data', (res) => onEvents(res.events.length));
        return () => void w.cancel();
      }),
    wire: (prefix) =>
      watchCost(etcd.endpoint, prefix, EVENTS, (onEvents) =>
        wire.watch({ request: () => ({ ...range(prefix), prev_kv: true, progress_notify: true }), onResponse: (res) => onEvents(res.events.length) }),
      ),
  };
  const watchUs: Record<string, number> = {};
  for (const [name, run] of Object.entries(watches)) {
    watchUs[name] = await run(`/watch/${name}/`);
    console.log(`${name.padEnd(6)} watch of ${EVENTS} puts: ${watchUs[name]} µs CPU per event`);
  }
  console.log(JSON.stringify({ txn: results, watchUs }));
  etcd3.close();
  wire.close();
} finally {
  await etcd.destroy();
}
