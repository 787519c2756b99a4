/**
 * The cluster of one workload, as upstream's scheduler_perf sets it up, but each component in
 * its own process: the API server (apiserver.ts) and `bin/orch-scheduler`, a separate process
 * reaching the server only through its kubeconfig, with upstream's scheduler_perf client
 * limits (5,000 qps, burst 5,000) and no leader election.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Child, nodeFlagsOf, spawnNode, stopChild, waitForLine } from '../children.js';
import type { ApiTarget } from './api.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const APISERVER = fileURLToPath(new URL('./apiserver.js', import.meta.url));
const SCHEDULER_BIN = join(ROOT, 'bin', 'orch-scheduler');
/** apiserver.ts runs as bin/orch-apiserver would: with its Node flags. */
export const APISERVER_FLAGS = nodeFlagsOf(join(ROOT, 'bin', 'orch-apiserver'));

export interface ClusterOptions {
  storage: 'sqlite' | 'memory';
  /** When set, both children write a V8 CPU profile there on exit. */
  cpuProfileDir?: string;
  /** Registers a temp dir for removal at exit. */
  keepTmp: (dir: string) => string;
}

export interface Cluster {
  target: ApiTarget;
  apiserver: Child;
  scheduler: Child;
  stop(): Promise<void>;
}

function profileArgs(o: ClusterOptions, name: string): string[] {
  return o.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProfileDir}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`] : [];
}

/** A child that dies before the benchmark is done ends the benchmark with its last words. */
function fatalOnExit(child: Child, what: string): () => void {
  const onExit = (code: number | null, signal: string | null) => {
    console.error(`${what} exited (${code ?? signal}) during the benchmark:\n${child.stderrTail()}`);
    process.exit(1);
  };
  child.proc.once('exit', onExit);
  return () => child.proc.off('exit', onExit);
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const dataDir = o.keepTmp(mkdtempSync(join(tmpdir(), 'orch-sched-e2e-')));
  const apiserver = spawnNode([...APISERVER_FLAGS, ...profileArgs(o, 'apiserver'), APISERVER, dataDir, o.storage], ROOT);
  const ready = await waitForLine(apiserver, (l) => l.startsWith('READY '), 60_000);
  const info = JSON.parse(ready.slice('READY '.length)) as { url: string; kubeconfigPath: string; caPem: string; certPem: string; keyPem: string };
  const unwatchApi = fatalOnExit(apiserver, 'the API server');
  const scheduler = spawnNode(
    [
      ...nodeFlagsOf(SCHEDULER_BIN),
      ...profileArgs(o, 'scheduler'),
      SCHEDULER_BIN,
      `--kubeconfig=${info.kubeconfigPath}`,
      '--leader-elect=false',
      // No serving: the benchmark reads nothing from the scheduler's ports, and fixed ports would collide.
      '--secure-port=0',
      '--port=0',
      '--orch-api-qps=5000',
      '--orch-api-burst=5000',
    ],
    ROOT,
  );
  // Its stdout is not read otherwise: keep the pipe flowing.
  scheduler.proc.stdout.resume();
  const unwatchScheduler = fatalOnExit(scheduler, 'orch-scheduler');
  const u = new URL(info.url);
  const target: ApiTarget = { url: info.url, host: u.hostname, port: Number(u.port), ca: info.caPem, cert: info.certPem, key: info.keyPem };
  return {
    target,
    apiserver,
    scheduler,
    async stop() {
      unwatchScheduler();
      unwatchApi();
      await stopChild(scheduler, 10_000);
      await stopChild(apiserver, 10_000);
    },
  };
}
