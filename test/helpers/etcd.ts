/**
 * Test helper: a real etcd (Debian's etcd-server) on free loopback ports with a temp data
 * dir, stopped by its pid. Each test that needs an empty store starts its own member.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ETCD_BINARY = '/usr/bin/etcd';

export interface EtcdProcess {
  /** The client URL, e.g. http://127.0.0.1:41234. */
  endpoint: string;
  /** Stops the member (SIGTERM, then SIGKILL after 3 s) and keeps its data dir. */
  stop(): Promise<void>;
  /** Kills the member at once (SIGKILL), as a crash; its data dir stays. */
  kill(): Promise<void>;
  /** Starts the member again on the same ports and data dir. */
  restart(): Promise<void>;
  /** Stops the member and removes its data dir. */
  destroy(): Promise<void>;
  /** The running member's process id (for its CPU in /proc), undefined while stopped. */
  pid(): number | undefined;
}

export interface EtcdProcessOptions {
  /** Serve clients over TLS with these PEM files, requiring client certificates signed by trustedCaFile. */
  tls?: { certFile: string; keyFile: string; trustedCaFile: string };
  /** etcd --max-request-bytes; etcd's default is 1.5 MiB. */
  maxRequestBytes?: number;
  /** etcd --quota-backend-bytes. */
  quotaBackendBytes?: number;
}

/** A free loopback TCP port (bound then released; etcd takes it right after). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts one etcd member; resolves once it serves clients. */
export async function startEtcd(opts: EtcdProcessOptions = {}): Promise<EtcdProcess> {
  const [member] = await startEtcdCluster(1, opts);
  return member;
}

/** Starts an n-member etcd cluster on loopback; resolves once every member serves clients. */
export async function startEtcdCluster(n: number, opts: EtcdProcessOptions = {}): Promise<EtcdProcess[]> {
  const root = await mkdtemp(join(tmpdir(), 'orch-etcd-'));
  const ports = [];
  for (let i = 0; i < n; i++) ports.push({ client: await freePort(), peer: await freePort() });
  const initialCluster = ports.map((p, i) => `m${i}=http://127.0.0.1:${p.peer}`).join(',');
  const members = ports.map((p, i) => {
    const endpoint = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${p.client}`;
    const args = [
      '--data-dir',
      join(root, `m${i}`),
      '--name',
      `m${i}`,
      '--listen-client-urls',
      endpoint,
      '--advertise-client-urls',
      endpoint,
      '--listen-peer-urls',
      `http://127.0.0.1:${p.peer}`,
      '--initial-advertise-peer-urls',
      `http://127.0.0.1:${p.peer}`,
      '--initial-cluster',
      initialCluster,
      '--initial-cluster-token',
      root,
      '--log-level',
      'error',
      '--logger',
      'zap',
      // Tests wait on watch progress; etcd's default of 10 minutes would never arrive.
      '--experimental-watch-progress-notify-interval',
      '200ms',
    ];
    if (opts.maxRequestBytes !== undefined) args.push('--max-request-bytes', String(opts.maxRequestBytes));
    if (opts.quotaBackendBytes !== undefined) args.push('--quota-backend-bytes', String(opts.quotaBackendBytes));
    if (opts.tls)
      args.push('--cert-file', opts.tls.certFile, '--key-file', opts.tls.keyFile, '--trusted-ca-file', opts.tls.trustedCaFile, '--client-cert-auth');
    return member(endpoint, args, opts.tls);
  });
  try {
    await Promise.all(members.map((m) => m.restart()));
  } catch (err) {
    await Promise.all(members.map((m) => m.kill()));
    await rm(root, { recursive: true, force: true });
    throw err;
  }
  let destroyed = false;
  return members.map((m) => ({
    ...m,
    destroy: async () => {
      await Promise.all(members.map((x) => x.stop()));
      if (!destroyed) await rm(root, { recursive: true, force: true });
      destroyed = true;
    },
  }));
}

/** One member process: started (again) by restart(), stopped by its pid. */
function member(endpoint: string, args: string[], tls?: EtcdProcessOptions['tls']): Omit<EtcdProcess, 'destroy'> {
  let child: ChildProcess | undefined;

  const launch = async () => {
    const proc = spawn(ETCD_BINARY, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child = proc;
    let stderr = '';
    proc.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`etcd exited with ${proc.exitCode}: ${stderr}`);
      if (tls ? await listening(endpoint) : await healthy(endpoint)) return;
      if (Date.now() > deadline) throw new Error(`etcd did not start within 15 s: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const signal = async (sig: NodeJS.Signals) => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.pid === undefined) return;
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    process.kill(proc.pid, sig);
    const timer = setTimeout(() => proc.pid !== undefined && proc.exitCode === null && process.kill(proc.pid, 'SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  };

  return { endpoint, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL'), restart: launch, pid: () => child?.pid };
}

/** True once etcd answers /health with ok. */
async function healthy(endpoint: string): Promise<boolean> {
  try {
    return (await fetch(`${endpoint}/health`)).ok;
  } catch {
    return false;
  }
}

/** True once the port accepts connections (a TLS member's /health needs a client certificate). */
function listening(endpoint: string): Promise<boolean> {
  const url = new URL(endpoint);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
