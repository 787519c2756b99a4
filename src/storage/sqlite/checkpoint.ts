/**
 * WAL checkpoints with their fsyncs off the event loop. SQLite checkpoints on its own once the
 * WAL passes 1,000 pages, inside the commit that crossed the line, and under `synchronous =
 * NORMAL` that checkpoint fsyncs the WAL and then the database file: on the event loop, since
 * better-sqlite3 is synchronous. Each took 10-17 ms on an idle disk here and up to 96 ms while
 * another process wrote to the disk (one commit in three when objects are 1.4 MB); in the
 * hostile-input run the server held its loop 765 ms in one such commit. So the connection runs
 * `synchronous = OFF` with automatic checkpoints off, every fsync is made by libuv's thread
 * pool (wal-sync.ts for commits), and a checkpoint is done here in steps while writes wait:
 *
 *   1. writes are held (no transaction may write until step 5 is done);
 *   2. the WAL is fsynced, so every frame to be copied is on disk;
 *   3. `wal_checkpoint(PASSIVE)` copies the frames into the database file (no fsync: OFF);
 *   4. the database file is fsynced, then `wal_checkpoint(TRUNCATE)` empties the WAL (nothing
 *      is left to copy) and the WAL is fsynced, so the emptying is on disk;
 *   5. writes go again, into the empty WAL.
 *
 * That is SQLite's own order under NORMAL (sync the WAL, copy, sync the database, and only then
 * reuse the WAL), with the header sync of the reused WAL replaced by an emptied file: after a
 * power loss the WAL holds either frames already in the synced database file, or only frames
 * written after step 5, which recovery checks against their own header. Writes wait one
 * checkpoint (two or three fsyncs, a few milliseconds) about every 4 MB of WAL; reads go on.
 */
import { closeSync, fstatSync, fsync, openSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { WalSync } from './wal-sync.js';

/** What the store does around a checkpoint. */
export interface CheckpointHooks {
  /** Stops writes from committing (queued writes wait). */
  hold(): void;
  /** Lets writes commit again. */
  release(): void;
  /** A step failed: the store's waiting writes fail with err; the checkpoint is retried. */
  failed(err: Error): void;
}

/** How long a failed checkpoint waits before it is tried again. */
const RETRY_MS = 1000;

function fsyncAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
}

/**
 * Runs one checkpoint and fails unless it copied the whole WAL: a TRUNCATE that still had
 * frames to copy would empty the WAL before the database file holding them is synced. (Only a
 * statement left reading across the steps could stop it; the retry comes after it.)
 */
function checkpoint(db: Database.Database, mode: 'PASSIVE' | 'TRUNCATE'): void {
  const [r] = db.pragma(`wal_checkpoint(${mode})`) as { busy: number; log: number; checkpointed: number }[];
  if (r !== undefined && (r.busy !== 0 || (r.log > 0 && r.checkpointed !== r.log))) {
    throw new Error(`WAL checkpoint (${mode}) incomplete: ${r.checkpointed} of ${r.log} frames copied${r.busy ? ', busy' : ''}`);
  }
}

export class Checkpoints {
  private running: Promise<void> | undefined;
  private closed = false;

  private constructor(
    private readonly db: Database.Database,
    private readonly walSync: WalSync,
    private readonly walFd: number,
    private readonly dbFd: number,
    private readonly thresholdBytes: number,
    private readonly hooks: CheckpointHooks,
  ) {}

  /**
   * Takes over checkpointing of a connection whose commits walSync makes durable: SQLite's
   * automatic checkpoints and its own fsyncs are switched off. Undefined (and SQLite keeps
   * both) when the files cannot be held open.
   */
  static start(db: Database.Database, path: string, walSync: WalSync, thresholdPages: number, hooks: CheckpointHooks): Checkpoints | undefined {
    let walFd: number;
    let dbFd: number;
    try {
      walFd = openSync(`${path}-wal`, 'r');
    } catch {
      return undefined;
    }
    try {
      dbFd = openSync(path, 'r');
    } catch {
      closeSync(walFd);
      return undefined;
    }
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.pragma('wal_autocheckpoint = 0');
    db.pragma('synchronous = OFF');
    return new Checkpoints(db, walSync, walFd, dbFd, thresholdPages * pageSize, hooks);
  }

  /** True from step 1 to step 5: a transaction must not write now. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Resolves once no checkpoint is running. */
  async idle(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  /** After each commit: starts a checkpoint once the WAL has grown past the threshold (one fstat). */
  afterCommit(): void {
    if (this.running !== undefined || this.closed) return;
    if (fstatSync(this.walFd).size < this.thresholdBytes) return;
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
  }

  /** Waits for a running checkpoint, then releases the files; before the connection closes. */
  async close(): Promise<void> {
    this.closed = true;
    await this.idle();
    closeSync(this.walFd);
    closeSync(this.dbFd);
    // SQLite checkpoints and removes the WAL when the connection closes: with its own fsyncs.
    this.db.pragma('synchronous = FULL');
  }

  private async run(): Promise<void> {
    this.hooks.hold();
    try {
      for (;;) {
        try {
          await this.steps();
          return;
        } catch (err) {
          // Writes must not reuse a WAL whose frames may not all be in a synced database file:
          // they keep waiting (and the ones queued now fail) until a try succeeds.
          this.hooks.failed(err instanceof Error ? err : new Error(String(err)));
          if (this.closed) return;
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    } finally {
      this.hooks.release();
    }
  }

  private async steps(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.walSync.after((err) => (err ? reject(err) : resolve())));
    checkpoint(this.db, 'PASSIVE');
    await fsyncAsync(this.dbFd);
    checkpoint(this.db, 'TRUNCATE');
    await fsyncAsync(this.walFd);
  }
}
