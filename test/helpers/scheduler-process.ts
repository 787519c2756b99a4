/** Test helpers: run `orch-scheduler` as a separate process, to completion or until it serves. */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const SCHEDULER_BIN = fileURLToPath(new URL('../../../bin/orch-scheduler', import.meta.url));

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs orch-scheduler with args until it exits (bounded by timeoutMs). */
export function runScheduler(args: readonly string[], timeoutMs = 20_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCHEDULER_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`orch-scheduler ${args.join(' ')} did not exit within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServingScheduler {
  child: ChildProcess;
  securePort: number;
  output(): string;
  stop(): Promise<void>;
}

/** Starts orch-scheduler and waits for its "Serving securely on" line. */
export function serveScheduler(args: readonly string[], timeoutMs = 20_000): Promise<ServingScheduler> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCHEDULER_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`orch-scheduler did not serve within ${timeoutMs} ms: ${out}`));
    }, timeoutMs);
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /Serving securely on \S+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          child,
          securePort: Number(m[1]),
          output: () => out,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`orch-scheduler exited ${code} before serving: ${out}`));
    });
  });
}
