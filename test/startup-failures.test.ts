/**
 * Start-up failures of the real binaries, as a user meets them: each is one line on stderr
 * naming the problem and the fix, exit code 1, no stack trace, and no kubeconfig written; a
 * second server on a data directory is refused while a killed one's lock is not in the way;
 * and what the server writes under its data directory is private (files 0600, directories 0700).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ORCH = fileURLToPath(new URL('../src/cmd/orch.js', import.meta.url));
const APISERVER = fileURLToPath(new URL('../src/cmd/orch-apiserver.js', import.meta.url));

const root = mkdtempSync(join(tmpdir(), 'orch-startup-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `d${n++}`);

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a binary that is expected to fail at start-up; kills it (by pid) if it does not exit. */
function runToExit(bin: string, args: string[]): Promise<Exit> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** Asserts a failed start: exit 1, nothing on stdout, exactly one stderr line, no stack frame. */
function assertOneLineFailure(res: Exit, ...mentions: RegExp[]): void {
  assert.equal(res.code, 1, `exit code; stderr: ${res.stderr}`);
  assert.equal(res.stdout, '');
  const lines = res.stderr.split('\n').filter((l) => l.trim() !== '');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${res.stderr}`);
  assert.doesNotMatch(res.stderr, /^\s+at /m);
  assert.match(lines[0], /^error: /);
  for (const m of mentions) assert.match(lines[0], m);
}

/** A server started on port 0; resolves once it printed its ready line. */
async function startServer(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [ORCH, '--data-dir', dataDir, '--secure-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
    if (/ ready at https:/.test(line)) {
      clearTimeout(timer);
      return child;
    }
  }
  clearTimeout(timer);
  throw new Error(`server did not start: ${stderr}`);
}

/** Sends signal to the child (by its pid) and resolves to its exit code. */
function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  process.kill(child.pid as number, signal);
  return exited;
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe('start-up failures are one line with the fix, exit 1', () => {
  const badFlags: [string[], RegExp][] = [
    [['--secure-port', 'abc'], /--secure-port.*'abc'.*port number/],
    [['--secure-port', '-1'], /--secure-port.*'-1'/],
    [['--secure-port', '65536'], /--secure-port.*'65536'/],
    [['--secure-port', '0x10'], /--secure-port.*'0x10'/],
    [['--event-ttl', '5x'], /--event-ttl.*unknown unit/],
    [['--etcd-compaction-interval', '-5m'], /--etcd-compaction-interval.*negative/],
    [['--service-cluster-ip-range', '10.0.0/99'], /--service-cluster-ip-range.*CIDR/],
    [['--service-cluster-ip-range', 'not-a-cidr'], /--service-cluster-ip-range/],
    [['--service-node-port-range', '40000-30000'], /--service-node-port-range/],
    [['--bind-address', 'localhost:80'], /--bind-address.*IP address/],
    [['--quota-backend-bytes', '2GiB'], /--quota-backend-bytes.*bytes/],
    [['-v', 'loud'], /--v.*log level/],
    [['--storage-backend', 'etcd3'], /--etcd-servers must be specified with --storage-backend=etcd3/],
    [['--storage-backend', 'etcd3', '--etcd-servers', 'http://127.0.0.1:1'], /cannot reach etcd at http:\/\/127\.0\.0\.1:1 .*start etcd or fix --etcd-servers/],
    [['--etcd-healthcheck-timeout', 'soon'], /--etcd-healthcheck-timeout/],
    [['--feature-gates', 'Bogus=true'], /unrecognized feature gate: Bogus/],
    [['--tls-cert-file', '/nonexistent.crt', '--tls-private-key-file', '/nonexistent.key'], /cannot read --tls-cert-file \/nonexistent\.crt/],
  ];
  for (const [args, mention] of badFlags) {
    it(`${args.join(' ')}`, async () => {
      const dir = freshDir();
      assertOneLineFailure(await runToExit(ORCH, ['--data-dir', dir, ...args]), mention);
      assert.equal(existsSync(join(dir, 'admin.kubeconfig')), false);
    });
  }

  it('orch-apiserver reports a bad flag the same way', async () => {
    assertOneLineFailure(await runToExit(APISERVER, ['--data-dir', freshDir(), '--secure-port', 'abc']), /--secure-port/);
  });

  it('a TLS pair that is not PEM names the file', async () => {
    const dir = freshDir();
    mkdirSync(dir);
    writeFileSync(join(dir, 'x.crt'), 'garbage');
    writeFileSync(join(dir, 'x.key'), 'garbage');
    const res = await runToExit(ORCH, ['--data-dir', dir, '--tls-cert-file', join(dir, 'x.crt'), '--tls-private-key-file', join(dir, 'x.key')]);
    assertOneLineFailure(res, /x\.crt is not a PEM certificate/, /--tls-cert-file/);
  });

  it('a port in use: names the address and --secure-port, writes no kubeconfig and leaves no lock', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o700 });
    // A kubeconfig from an earlier run stays as it was: a failed start never rewrites it.
    writeFileSync(join(dir, 'admin.kubeconfig'), 'earlier', { mode: 0o600 });
    try {
      const res = await runToExit(ORCH, ['--data-dir', dir, '--secure-port', String(port)]);
      assertOneLineFailure(res, new RegExp(`127\\.0\\.0\\.1:${port}`), /already in use/, /--secure-port/);
    } finally {
      busy.close();
    }
    assert.equal(readFileSync(join(dir, 'admin.kubeconfig'), 'utf8'), 'earlier');
    assert.equal(existsSync(join(dir, 'orch.lock')), false);
  });

  it('a corrupt state.db: names the file and the way out, and leaves it untouched', async () => {
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o700 });
    const garbage = Buffer.alloc(8192, 'not a database ');
    writeFileSync(join(dir, 'state.db'), garbage);
    const res = await runToExit(ORCH, ['--data-dir', dir, '--secure-port', '0']);
    assertOneLineFailure(res, /state\.db is not a usable store/, /move it/);
    assert.deepEqual(readFileSync(join(dir, 'state.db')), garbage);
    assert.equal(existsSync(join(dir, 'admin.kubeconfig')), false);
  });

  it('a garbage ca.crt and ca.key: names the file and the way out', async () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'pki'), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'pki', 'ca.crt'), 'garbage\n');
    writeFileSync(join(dir, 'pki', 'ca.key'), 'garbage\n');
    const res = await runToExit(ORCH, ['--data-dir', dir, '--secure-port', '0']);
    assertOneLineFailure(res, /ca\.crt is not a PEM certificate/, /delete .*pki/);
    assert.equal(existsSync(join(dir, 'admin.kubeconfig')), false);
  });

  it('a data directory that is a file', async () => {
    const file = join(root, `file${n++}`);
    writeFileSync(file, 'x');
    assertOneLineFailure(await runToExit(ORCH, ['--data-dir', file, '--secure-port', '0']), /cannot create data directory/, /--data-dir/);
  });
});

describe('one server per data directory', () => {
  it('a second server is refused naming the first; after kill -9 the stale lock does not block; a clean stop removes it', async () => {
    const dir = freshDir();
    const first = await startServer(dir);
    try {
      const res = await runToExit(ORCH, ['--data-dir', dir, '--secure-port', '0']);
      assertOneLineFailure(res, new RegExp(`in use by process ${first.pid}`), /--data-dir/);
      assert.equal(first.exitCode, null, 'the first server keeps running');
    } finally {
      await stop(first, 'SIGKILL');
    }
    assert.equal(existsSync(join(dir, 'orch.lock')), true, 'a killed server leaves its lock');
    const second = await startServer(dir);
    assert.equal(readFileSync(join(dir, 'orch.lock'), 'utf8').trim(), String(second.pid));
    assert.equal(await stop(second), 0);
    assert.equal(existsSync(join(dir, 'orch.lock')), false);
  });

  it('everything written under the data directory is private: files 0600, directories 0700', async () => {
    const dir = freshDir();
    const server = await startServer(dir);
    try {
      assert.equal(mode(dir), 0o700, dir);
      const walk = (d: string): string[] =>
        readdirSync(d).flatMap((name) => (statSync(join(d, name)).isDirectory() ? [join(d, name), ...walk(join(d, name))] : [join(d, name)]));
      const paths = walk(dir);
      for (const name of ['state.db', 'admin.kubeconfig', 'orch.lock', 'pki', 'pki/ca.key', 'pki/ca.crt', 'pki/apiserver.key', 'pki/admin.key']) {
        assert.ok(paths.includes(join(dir, name)), `${name} exists`);
      }
      for (const p of paths) assert.equal(mode(p), statSync(p).isDirectory() ? 0o700 : 0o600, p);
    } finally {
      assert.equal(await stop(server), 0);
    }
  });
});
