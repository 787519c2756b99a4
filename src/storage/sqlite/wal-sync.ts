/**
 * Durability off the event loop. With `synchronous = FULL` SQLite fsyncs the WAL inside every
 * commit, and better-sqlite3 runs on the event loop: each commit then stalled the whole server
 * for the length of an fsync (~4 ms here, several times the commit's own CPU). Instead the
 * connection runs `synchronous = NORMAL` (a commit writes its WAL frames without fsync; SQLite
 * still syncs around checkpoints and when the WAL is reused, unless checkpoint.ts takes those
 * over, and then it runs `OFF`) and this fsyncs the WAL file in
 * libuv's thread pool: a commit's writes are acknowledged, and its watch events published, only
 * once an fsync that started after the commit has completed. So an acknowledged write survives
 * power loss exactly as before, and what a watcher saw is on disk (etcd's order: sync the WAL,
 * then answer and notify). One fsync covers every commit made before it started, so while one
 * runs the next commits wait together for the following one.
 *
 * A read that comes straight from SQLite may see a commit that is not yet acknowledged, as
 * under any group commit: after a power loss it is gone, but no client was told it was stored.
 */
import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';
import type Database from 'better-sqlite3';

/** Settles one commit: err when the fsync that was to make it durable failed. */
export type Settle = (err?: Error) => void;

export class WalSync {
  /** Settlements of commits no fsync has started for yet, in commit order. */
  private waiting: Settle[] = [];
  /** The fsync in flight, if any. */
  private running: Promise<void> | undefined;
  private closed = false;

  private constructor(private readonly fd: number) {}

  /**
   * Switches the connection to deferred WAL syncing when its WAL file can be held open (a file
   * database in WAL mode); undefined otherwise, and SQLite keeps syncing in each commit.
   */
  static open(db: Database.Database, path: string): WalSync | undefined {
    if (path === ':memory:' || path.startsWith('file:')) return undefined;
    let fd: number;
    try {
      // The WAL exists once the schema transaction at open has run; SQLite keeps the same file
      // (reset, never unlinked) while the connection is open.
      fd = openSync(`${path}-wal`, 'r');
    } catch {
      return undefined;
    }
    db.pragma('synchronous = NORMAL');
    return new WalSync(fd);
  }

  /** Runs settle (in commit order) once the WAL holding the commit just made is on disk. */
  after(settle: Settle): void {
    this.waiting.push(settle);
    if (this.running === undefined) this.start();
  }

  /** Syncs and settles everything outstanding, then releases the file; for the store's close. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.running !== undefined) await this.running;
    const rest = this.waiting;
    this.waiting = [];
    if (rest.length > 0) {
      fsyncSync(this.fd);
      for (const settle of rest) settle();
    }
    closeSync(this.fd);
  }

  private start(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.running = new Promise<void>((done) => {
      fsync(this.fd, (err) => {
        // A failed fsync leaves the commits' durability unknown: their writes fail, as a
        // commit whose own fsync failed would under synchronous = FULL.
        for (const settle of batch) settle(err ?? undefined);
        this.running = undefined;
        done();
        if (this.waiting.length > 0 && !this.closed) this.start();
      });
    });
  }
}
