/**
 * orch under benchmark, run as a child process so it has its own event loop and core:
 * startControlPlane on a SQLite data directory, then one line `READY {json}` on stdout with
 * the URL and admin credentials. SIGTERM stops it gracefully.
 * Usage: node dist/bench/orch-server.js <dataDir>
 */
import { startControlPlane } from '../src/cmd/control-plane.js';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: orch-server <dataDir>');
const cp = await startControlPlane({ dataDir, securePort: 0, storageBackend: 'sqlite', verbosity: 0 });
process.stdout.write(`READY ${JSON.stringify({ url: cp.url, caPem: cp.caPem, certPem: cp.adminCertPem, keyPem: cp.adminKeyPem })}\n`);
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
