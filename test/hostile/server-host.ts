/**
 * Starts the server under test in a child process (server-process.ts) with a heap cap, and
 * tells the runner when it died and why.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerInfo } from './client.js';

export interface HostedServer {
  server: ServerInfo;
  /** Set once the server process ended on its own (crash, heap exhausted); the reason. */
  death?: string;
  /** Resolves with the reason when the server process ends. */
  died: Promise<string>;
  /** Built-in prototype properties the server gained while running (prototype pollution). */
  pollution(): Promise<string[]>;
  /** Stops the server and removes its data dir. */
  stop(): Promise<void>;
}

/** The server's heap cap: a request that makes it allocate past this is a crash, not a test-process OOM. */
const HEAP_MB = 768;

/** Starts a fresh server (new data dir) in a child process; resolves once it serves. */
export async function hostServer(opts: { requestTimeoutMs?: number } = {}): Promise<HostedServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'orch-hostile-'));
  const child = fork(fileURLToPath(new URL('./server-process.js', import.meta.url)), [dataDir, String(opts.requestTimeoutMs ?? '')], {
    execArgv: [`--max-old-space-size=${HEAP_MB}`],
    env: { ...process.env, ORCH_TEST: '1' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  // Keep the tail of the server's stderr: a fatal error's first lines say why it died.
  let stderr = '';
  let firstError: string | undefined;
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-4000);
    // The first error line (a fatal OOM prints it before a long native stack).
    firstError ??= stderr.split('\n').find((l) => /FATAL ERROR|RangeError|Error:/.test(l));
  });
  let stopping = false;
  const hosted = {} as HostedServer;
  hosted.died = new Promise<string>((resolve) => {
    child.on('exit', (code, signal) => {
      if (!stopping) {
        const lines = stderr.split('\n').filter((l) => l.trim() !== '');
        const fatal = firstError ?? lines.at(-1);
        hosted.death = `server process exited (${signal ?? `code ${code}`})${fatal ? `: ${fatal}` : ''}`;
      }
      resolve(hosted.death ?? 'stopped');
    });
  });
  hosted.server = await new Promise<ServerInfo>((resolve, reject) => {
    child.on('message', (msg: { type: string; server?: ServerInfo; error?: string }) => {
      if (msg.type === 'ready' && msg.server) resolve({ ...msg.server, pid: child.pid });
      if (msg.type === 'failed') reject(new Error(`server did not start: ${msg.error}`));
    });
    void hosted.died.then((why) => reject(new Error(`server did not start: ${why}`)));
  });
  hosted.pollution = () =>
    new Promise((resolve) => {
      if (hosted.death || !child.connected) return resolve([]);
      const onMessage = (msg: { type: string; pollution?: string[] }) => {
        if (msg.type !== 'prototypes') return;
        child.off('message', onMessage);
        resolve(msg.pollution ?? []);
      };
      child.on('message', onMessage);
      child.send('prototypes');
    });
  hosted.stop = async () => {
    stopping = true;
    if (!hosted.death && child.connected) {
      child.send('stop');
      await Promise.race([hosted.died, new Promise((r) => setTimeout(r, 10_000).unref())]);
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  };
  return hosted;
}
