/**
 * One server per data directory: a lock file holding the owner's pid, created atomically.
 * A lock whose pid no longer runs (the owner was killed) is stale and taken over, so a crash
 * never blocks the next start. The SQLite store's exclusive lock stays as a second guard for
 * the rare races this cannot see (two starts taking over the same stale lock at once).
 */
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The lock file's name inside the data directory. */
export const LOCK_FILE = 'orch.lock';

/** Data directories locked by this process (a pid cannot tell two in-process owners apart). */
const heldHere = new Set<string>();

export interface DataDirLock {
  /** Removes the lock file; idempotent. */
  release(): void;
}

/** Locks dataDir for this process, or throws an Error naming the owner and the fix. */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = resolve(dataDir);
  const path = join(dir, LOCK_FILE);
  if (heldHere.has(path)) {
    throw new Error(`data directory ${dir} is already used by a control plane in this process: stop it first, or use another data directory`);
  }
  // Written whole under a private name, then linked into place: link fails if the lock exists,
  // so a reader never sees a half-written pid.
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${process.pid}\n`, { mode: 0o600 });
  } catch (err) {
    throw new Error(`cannot write ${tmp} (${(err as Error).message}): check that the data directory ${dir} is writable`);
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(tmp, path);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw err;
      }
      const owner = readOwner(path);
      if (owner !== undefined && isRunning(owner)) {
        throw new Error(
          `data directory ${dir} is in use by process ${owner} (another orch server?): stop it, or use another --data-dir; if no server uses it, delete ${path}`,
        );
      }
      removeIfExists(path);
    }
  } finally {
    removeIfExists(tmp);
  }
  heldHere.add(path);
  return {
    release() {
      if (!heldHere.delete(path)) return;
      if (readOwner(path) === process.pid) removeIfExists(path);
    },
  };
}

/** The pid in the lock file; undefined when it is gone or holds no pid. */
function readOwner(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const pid = /^\d+\n?$/.test(text) ? Number(text.trim()) : Number.NaN;
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * True when pid names a live process other than this one (our own pid or our parent's in a
 * lock we do not hold is a leftover from an earlier run that had the same pid, as in a
 * restarted container).
 */
function isRunning(pid: number): boolean {
  if (pid === process.pid || pid === process.ppid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeIfExists(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
