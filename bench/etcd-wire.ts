/**
 * The etcd client alone: CPU per call of the store's create Txn (a compare on the key's mod
 * revision, a put of a 1 KiB value) through the etcd3 package and through orch's own
 * node:http2 client (src/storage/etcd/wire), against one etcd started here, 32 calls in flight.
 * CPU is this process's (process.cpuUsage), so the figure is the client's whatever else runs on
 * the machine. `node dist/bench/etcd-wire.js` (BENCH_CALLS, default 20000).
 */
import { Etcd3 } from 'etcd3';
import { EtcdClient } from '../src/storage/etcd/wire/etcd-client.js';
import { startEtcd } from '../test/helpers/etcd.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
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
  console.log(JSON.stringify(results));
  etcd3.close();
  wire.close();
} finally {
  await etcd.destroy();
}
