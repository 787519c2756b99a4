/**
 * The API server of `bench:scheduler-e2e`, in its own process so its CPU is read apart from the
 * scheduler's: what upstream's scheduler_perf starts (an API server, no controllers), with the
 * admission plugins it disables (ServiceAccount: no controller makes the default account).
 * Prints one line `READY {json}` with the URL and the admin kubeconfig; SIGTERM stops it.
 * Usage: node dist/bench/scheduler-e2e/apiserver.js <dataDir> <sqlite|memory>
 */
import { startControlPlane } from '../../src/cmd/control-plane.js';

const [dataDir, backend] = process.argv.slice(2);
if (!dataDir || (backend !== 'sqlite' && backend !== 'memory')) throw new Error('usage: apiserver <dataDir> <sqlite|memory>');

const cp = await startControlPlane({
  dataDir,
  securePort: 0,
  storageBackend: backend,
  verbosity: 0,
  controllers: false,
  scheduler: false,
  serviceAccountAdmission: false,
  // Upstream's scheduler_perf lifts the request timeout for its largest cases; in-flight limits stay upstream's.
  requestTimeoutMs: 10 * 60 * 1000,
});
process.stdout.write(
  `READY ${JSON.stringify({ url: cp.url, kubeconfigPath: cp.kubeconfigPath, caPem: cp.caPem, certPem: cp.adminCertPem, keyPem: cp.adminKeyPem })}\n`,
);

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
