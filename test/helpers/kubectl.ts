/**
 * Drives a real kubectl binary against a test cluster: one-shot runs, long-running commands
 * (`get -w`, `wait`, `delete --wait`) read line by line, and the parsing of `kubectl get` tables.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { ControlPlane, ControlPlaneOptions } from '../../src/cmd/control-plane.js';
import { startTestCluster, type TestCluster } from './cluster.js';

/** Where the machine keeps one kubectl per minor release (`kubectl.1.27` ... `kubectl.1.33`). */
export const KUBECTL_DIR = '/usr/lib/google-cloud-sdk/bin';

export interface KubectlRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface KubectlOptions {
  /** Extra environment (EDITOR for `edit`). */
  env?: Record<string, string>;
  /** Kill the process after this long (default 20 s); a killed run has code -1. */
  timeoutMs?: number;
}

/** A kubectl started in the background whose output is read as it comes. */
export interface KubectlProcess {
  /** Resolves with the nth (default first) line of the stream that matches; rejects after timeoutMs. */
  waitForLine(stream: 'stdout' | 'stderr', match: RegExp, timeoutMs: number, nth?: number): Promise<string>;
  /** Every complete line written to stdout so far. */
  stdoutLines(): string[];
  /** Resolves when the process exits by itself. */
  exited: Promise<KubectlRun>;
  /** Ends the process (SIGTERM) and resolves with what it wrote. */
  stop(): Promise<KubectlRun>;
}

export interface Kubectl {
  readonly version: string;
  run(args: string[], opts?: KubectlOptions): Promise<KubectlRun>;
  /** stdout of a run that must succeed. */
  ok(args: string[], opts?: KubectlOptions): Promise<string>;
  start(args: string[], opts?: KubectlOptions): KubectlProcess;
}

/** kubectl `version` (`1.27`) against the cluster's admin kubeconfig, with its own cache dir. */
export function kubectlFor(version: string, cluster: ControlPlane, cacheDir: string): Kubectl {
  const binary = join(KUBECTL_DIR, `kubectl.${version}`);
  const argv = (args: string[]) => ['--kubeconfig', cluster.kubeconfigPath, '--cache-dir', cacheDir, ...args];
  const envFor = (opts: KubectlOptions) => ({ ...process.env, ...(opts.env ?? {}) });
  const run = (args: string[], opts: KubectlOptions = {}): Promise<KubectlRun> =>
    new Promise((resolve) => {
      // -v=8 logs whole response bodies: allow far more output than execFile's default 1 MiB.
      execFile(binary, argv(args), { timeout: opts.timeoutMs ?? 20_000, env: envFor(opts), maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
        const e = err as (Error & { code?: number | string; killed?: boolean }) | null;
        resolve({ code: !e ? 0 : e.killed ? -1 : typeof e.code === 'number' ? e.code : 1, stdout, stderr });
      });
    });
  return {
    version,
    run,
    async ok(args, opts) {
      const r = await run(args, opts);
      if (r.code !== 0) throw new Error(`kubectl.${version} ${args.join(' ')} exited ${r.code}: ${r.stderr}${r.stdout}`);
      return r.stdout;
    },
    start(args, opts = {}) {
      return startProcess(binary, argv(args), opts);
    },
  };
}

/** A cluster and a scratch folder for the enclosing suite: made before its tests, removed after them. */
export interface KubectlWorkspace {
  /** The running cluster (from the suite's first before hook on). */
  readonly cluster: TestCluster;
  /** The scratch folder (manifests, kubectl caches). */
  readonly dir: string;
  /** kubectl `version` against the cluster, with a cache of its own in the scratch folder. */
  kubectl(version: string): Kubectl;
  /** Writes text to a file in the scratch folder; resolves with its path. */
  file(name: string, text: string): Promise<string>;
}

/** Registers the suite's workspace: the cluster (with opts) and the scratch folder. */
export function kubectlWorkspace(opts: ControlPlaneOptions = {}): KubectlWorkspace {
  let cluster: TestCluster | undefined;
  let dir: string | undefined;
  before(async () => {
    [cluster, dir] = await Promise.all([startTestCluster(opts), mkdtemp(join(tmpdir(), 'kubectl-'))]);
  });
  after(async () => {
    await cluster?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const ws: KubectlWorkspace = {
    get cluster() {
      assert.ok(cluster, 'the cluster starts in a before hook');
      return cluster;
    },
    get dir() {
      assert.ok(dir, 'the scratch folder is made in a before hook');
      return dir;
    },
    kubectl(version) {
      // Resolved at each use: the suite declares its kubectl before the cluster has started.
      const resolved = () => kubectlFor(version, ws.cluster, join(ws.dir, `cache-${version}`));
      return { version, run: (args, o) => resolved().run(args, o), ok: (args, o) => resolved().ok(args, o), start: (args, o) => resolved().start(args, o) };
    },
    async file(name, text) {
      const path = join(ws.dir, name);
      await writeFile(path, text);
      return path;
    },
  };
  return ws;
}

function startProcess(binary: string, args: string[], opts: KubectlOptions): KubectlProcess {
  const child = spawn(binary, args, { env: { ...process.env, ...(opts.env ?? {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  const waiters: Array<{ stream: 'stdout' | 'stderr'; match: RegExp; nth: number; resolve: (line: string) => void }> = [];
  const lines = (stream: 'stdout' | 'stderr') => out[stream].split('\n').slice(0, -1);
  const check = () => {
    for (const w of [...waiters]) {
      const line = lines(w.stream).filter((l) => w.match.test(l))[w.nth - 1];
      if (line === undefined) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(line);
    }
  };
  child.stdout.on('data', (c: Buffer) => {
    out.stdout += c.toString('utf8');
    check();
  });
  child.stderr.on('data', (c: Buffer) => {
    out.stderr += c.toString('utf8');
    check();
  });
  const exited = new Promise<KubectlRun>((resolve) => {
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: out.stdout, stderr: out.stderr }));
  });
  // A command that hangs (a watch nobody stops) must not outlive its test.
  const guard = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
  exited.then(() => clearTimeout(guard));
  return {
    exited,
    stdoutLines: () => lines('stdout'),
    waitForLine(stream, match, timeoutMs, nth = 1) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const i = waiters.findIndex((w) => w.resolve === done);
          if (i >= 0) waiters.splice(i, 1);
          reject(new Error(`no ${nth} ${stream} line(s) matched ${match} within ${timeoutMs} ms; stdout:\n${out.stdout}\nstderr:\n${out.stderr}`));
        }, timeoutMs);
        const done = (line: string) => {
          clearTimeout(timer);
          resolve(line);
        };
        waiters.push({ stream, match, nth, resolve: done });
        check();
      });
    },
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** One row of `kubectl get` output, cells split where kubectl's tabwriter put 2+ spaces. */
export function cells(line: string): string[] {
  return line.trim().split(/\s{2,}/);
}

/** `kubectl get` output as its header cells and row cells (blank lines dropped). */
export function parseTable(stdout: string): { header: string[]; rows: string[][] } {
  const lines = stdout.split('\n').filter((l) => l.trim() !== '');
  if (lines.length === 0) return { header: [], rows: [] };
  return { header: cells(lines[0]), rows: lines.slice(1).map(cells) };
}

/** The row whose first cell is `name`, or undefined. */
export function rowNamed(rows: string[][], name: string): string[] | undefined {
  return rows.find((r) => r[0] === name);
}

/** The annotation client-side `kubectl apply` keeps the applied configuration in. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** What kubectl stores as the last-applied configuration of a manifest document (annotations always present). */
export function lastApplied(doc: any): any {
  const copy = structuredClone(doc);
  copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}) };
  return copy;
}

/** How kubectl names an object in its messages: `deployment.apps/web`, `configmap/app-config`. */
export function ref(obj: { apiVersion: string; kind: string; metadata: { name: string } }): string {
  const group = obj.apiVersion.includes('/') ? `.${obj.apiVersion.split('/')[0]}` : '';
  return `${obj.kind.toLowerCase()}${group}/${obj.metadata.name}`;
}

/** The URLs of the requests with this verb in a `-v=6` log (kubectl 1.27's and 1.33's formats). */
export function requestUrls(log: string, verb: string): string[] {
  const re = new RegExp(`\\b${verb} (https://\\S+)|verb="${verb}" url="([^"]+)"`, 'g');
  return [...log.matchAll(re)].map((m) => m[1] ?? m[2]);
}
