/**
 * Child-process entry that runs the control plane under test (forked by server-host.ts), so a
 * server that runs out of heap or throws ends this process, reported to the runner, rather than
 * the test process (a worker thread's heap cap does not reliably stop a V8 fatal OOM), and the
 * runner's own work does not share the server's event loop. IPC messages: `stop` closes it;
 * `prototypes` answers which built-in prototypes gained properties (pollution).
 */
import { startTestCluster } from '../helpers/cluster.js';

const BUILTINS: readonly [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];
const baseline = new Map(BUILTINS.map(([name, proto]) => [name, new Set(Reflect.ownKeys(proto).map(String))]));

/** Properties the built-in prototypes have now that they did not have at start. */
function pollution(): string[] {
  const out: string[] = [];
  for (const [name, proto] of BUILTINS) {
    for (const key of Reflect.ownKeys(proto).map(String)) if (!baseline.get(name)?.has(key)) out.push(`${name}.${key}`);
  }
  return out;
}

function post(msg: unknown): void {
  process.send?.(msg);
}

async function main(): Promise<void> {
  if (!process.send) throw new Error('server-process runs as a forked child with IPC');
  const [dataDir, requestTimeoutMs] = process.argv.slice(2);
  const cluster = await startTestCluster({ dataDir, ...(requestTimeoutMs ? { requestTimeoutMs: Number(requestTimeoutMs) } : {}) });
  process.on('message', async (msg: string) => {
    if (msg === 'prototypes') post({ type: 'prototypes', pollution: pollution() });
    if (msg === 'stop') {
      await cluster.close();
      post({ type: 'stopped' });
      process.disconnect();
    }
  });
  // The runner going away (even by kill -9) must not leave a server behind.
  process.on('disconnect', () => process.exit(0));
  post({ type: 'ready', server: { url: cluster.url, caPem: cluster.caPem, adminCertPem: cluster.adminCertPem, adminKeyPem: cluster.adminKeyPem } });
}

main().catch((err) => {
  post({ type: 'failed', error: String((err as Error)?.stack ?? err) });
  process.exit(1);
});
