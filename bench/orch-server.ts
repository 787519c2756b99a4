/**
 * orch under benchmark, run as a child process so it has its own event loop and core:
 * startControlPlane on a SQLite data directory, then one line `READY {json}` on stdout with the
 * URL and admin credentials. SIGTERM stops it gracefully; SIGUSR2 runs a full GC (when started
 * with `node --expose-gc`) and prints one line `MEM {json}` with its memory.
 * Usage: node [--expose-gc] dist/bench/orch-server.js <dataDir> [--no-metrics] [--no-apf] [--no-controllers] [--etcd=<url>] [--cert-dir=<dir>]
 * (--no-metrics: the API server records and serves no metrics, to measure what they cost;
 * --no-apf: the in-flight limits instead of API Priority and Fairness, likewise;
 * --no-controllers: the API server alone, without the all-in-one's in-process controllers;
 * --etcd: store in that etcd instead of SQLite; --cert-dir: another replica's certificates, so
 * one client certificate fits both).
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startControlPlane } from '../src/cmd/control-plane.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: orch-server <dataDir>');
// The handler is in place before READY is printed: the parent may signal as soon as it reads the line.
const gc = (globalThis as { gc?: () => void }).gc;
process.on('SIGUSR2', () => {
  // Twice: the first pass can leave weakly-held and finalizable objects for the second.
  gc?.();
  gc?.();
  // One tick later, so buffers freed by the collection are returned before RSS is read.
  setImmediate(() => {
    const m = process.memoryUsage();
    const mem = { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, gc: gc !== undefined };
    process.stdout.write(`MEM ${JSON.stringify(mem)}\n`);
  });
});

// Static bearer tokens: an admin's, so GET with a token can be compared with GET with the
// certificate, and a plain user's, whom RBAC must authorize (the benchmark binds it).
const token = randomBytes(24).toString('hex');
const readerToken = randomBytes(24).toString('hex');
const tokenAuthFile = join(dataDir, 'tokens.csv');
writeFileSync(tokenAuthFile, `${token},bench-admin,1,system:masters\n${readerToken},bench-reader,2\n`, { mode: 0o600 });
// The API server is what is measured: no scheduler writing statuses and events for the pods benchmarks create.
const metrics = process.argv.includes('--no-metrics') ? { metrics: false as const } : {};
const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const etcd = flag('etcd');
const storage = etcd === undefined ? { storageBackend: 'sqlite' as const } : { storageBackend: 'etcd3' as const, etcd: { servers: [etcd] } };
const certDir = flag('cert-dir');
const apf = process.argv.includes('--no-apf') ? { enablePriorityAndFairness: false } : {};
const controllers = process.argv.includes('--no-controllers') ? { controllers: false as const } : {};
const cp = await startControlPlane({
  dataDir,
  securePort: 0,
  verbosity: 0,
  tokenAuthFile,
  scheduler: false,
  ...storage,
  ...metrics,
  ...apf,
  ...controllers,
  ...(certDir === undefined ? {} : { certDir }),
});
process.stdout.write(`READY ${JSON.stringify({ url: cp.url, caPem: cp.caPem, certPem: cp.adminCertPem, keyPem: cp.adminKeyPem, token, readerToken })}\n`);

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  cp.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
