/**
 * Child processes for the benchmark: spawn, wait for a line on stdout, stop gracefully, and a
 * registry so that every child is killed even when the benchmark fails half-way.
 */
import { readFileSync, rmSync } from 'node:fs';
import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

const live = new Set<ChildProcess>();

export interface Child {
  proc: ChildProcessByStdio<null, Readable, Readable>;
  /** Last lines of stderr, for error messages. */
  stderrTail(): string;
}

/**
 * The Node flags a bin/ command starts with (its `#!/usr/bin/env -S node <flags>` line), so a
 * benchmark that spawns `node` itself runs the process as that command would.
 */
export function nodeFlagsOf(bin: string): string[] {
  const first = readFileSync(bin, 'utf8').split('\n', 1)[0] ?? '';
  const m = /^#!\S*env -S node((?: +\S+)*) *$/.exec(first);
  return m === null
    ? []
    : m[1]
        .trim()
        .split(/ +/)
        .filter((f) => f !== '');
}

/** Spawns `node args...`; the child is tracked until it exits. */
export function spawnNode(args: string[], cwd: string): Child {
  const proc = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  proc.once('exit', () => live.delete(proc));
  const tail: string[] = [];
  createInterface({ input: proc.stderr }).on('line', (line) => {
    tail.push(line);
    if (tail.length > 20) tail.shift();
  });
  return { proc, stderrTail: () => tail.join('\n') };
}

/** Resolves with the first stdout line matching `test`; rejects on exit or after `timeoutMs`. */
export function waitForLine(child: Child, test: (line: string) => boolean, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.proc.stdout });
    const finish = (err: Error | undefined, line?: string) => {
      clearTimeout(timer);
      child.proc.off('exit', onExit);
      lines.off('line', onLine);
      // Keep draining stdout so a chatty child never blocks on a full pipe.
      child.proc.stdout.resume();
      if (err) reject(err);
      else resolve(line ?? '');
    };
    const onLine = (line: string) => {
      if (test(line)) finish(undefined, line);
    };
    const onExit = (code: number | null, signal: string | null) =>
      finish(new Error(`child exited (${code ?? signal}) before it was ready:\n${child.stderrTail()}`));
    const timer = setTimeout(() => finish(new Error(`child not ready after ${timeoutMs} ms:\n${child.stderrTail()}`)), timeoutMs);
    lines.on('line', onLine);
    child.proc.once('exit', onExit);
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child has exited. */
export async function stopChild(child: Child, graceMs = 5000): Promise<void> {
  const { proc } = child;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, 'exit');
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Kills every child still running (used on failure and at exit). */
export function killAllChildren(): void {
  for (const proc of live) proc.kill('SIGKILL');
  live.clear();
}

/**
 * The life of one benchmark run: temp dirs and children are removed on exit or signal, and the
 * whole run is bounded by deadlineMs so a hung server cannot hang CI. `keepTmp` registers a temp
 * dir for removal; `cleanup` does it all now (it runs again, harmlessly, on exit).
 */
export function boundedRun(deadlineMs: number): { keepTmp: (dir: string) => string; cleanup: () => void } {
  const tmpDirs: string[] = [];
  const cleanup = (): void => {
    killAllChildren();
    for (const dir of tmpDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', cleanup);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
  setTimeout(() => {
    console.error(`benchmark exceeded ${deadlineMs} ms; aborting`);
    process.exit(1);
  }, deadlineMs).unref();
  const keepTmp = (dir: string): string => {
    tmpDirs.push(dir);
    return dir;
  };
  return { keepTmp, cleanup };
}

/** CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the file, i.e. 11 and 12 after the name; Linux
  // reports them in USER_HZ, which is 100 on every mainstream architecture.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Waits until the child uses less than 5% of a core over half a second (it has finished what
 * earlier steps set off), or `timeoutMs` passes; answers how long it waited.
 */
export async function waitQuiet(child: Child, timeoutMs = 15_000): Promise<number> {
  const pid = child.proc.pid;
  if (pid === undefined) return 0;
  const start = Date.now();
  const windowMs = 500;
  while (Date.now() - start < timeoutMs) {
    const before = cpuSeconds(pid);
    await new Promise((r) => setTimeout(r, windowMs));
    if ((cpuSeconds(pid) - before) * 1000 < windowMs * 0.05) break;
  }
  return Date.now() - start;
}
