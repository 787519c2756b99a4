/**
 * Log compaction in small transactions.
 *
 * Compacting to C deletes a log row with revision < C when a newer row of the same key exists
 * at or before C (it can never again be the newest row <= R for any R >= C), or when it is a
 * delete (a tombstone as the newest row reads the same as no row; older rows of its key are
 * superseded by it and go too). Rows with revision >= C stay, so watches from C replay fully.
 * What remains per key is its newest put <= C plus everything after: reads at R >= C stay exact.
 * Every rule needs a newer row of the same key (or a tombstone), so a live key's newest row,
 * which `kv` reads the current value from, is never deleted.
 *
 * The row kept per key by one compaction becomes superseded once its key is written again, but
 * it lies below the next compaction's windows. So each window also deletes the rows its own
 * rows (up to and including C) name as prev_revision: a row's predecessor (for a re-create,
 * its tombstone's predecessor, reached through the tombstone) is superseded by it by definition.
 *
 * Rows are visited in revision windows of `batchSize` (every revision has one row until it is
 * compacted, so a window holds at most batchSize rows), one transaction per window, yielding
 * to the event loop in between so group commits run between windows. Windows go in ascending
 * order, so a row's superseding row is still present when the row is examined. Progress
 * (`compacted_through`) is saved with each window, so a compaction cut short by a crash or
 * close resumes where it stopped at the next compact().
 */

import type Database from 'better-sqlite3';
import { LogType } from './schema.js';

export interface CompactionProgress {
  /** Called after each committed window with the rows it deleted. */
  onBatch(deleted: number, through: number): void;
  /** True once the store is closing: stop before touching the database again. */
  stopped(): boolean;
  /** Resolves when a window may write (no WAL checkpoint between its steps); undefined: now. */
  beforeWindow?(): Promise<void> | undefined;
}

export class Compaction {
  private readonly deleteWindow: Database.Statement;
  private readonly deletePredecessors: Database.Statement;
  private readonly setMeta: Database.Statement;
  private readonly window: (from: number, to: number, target: number) => number;

  constructor(
    private readonly db: Database.Database,
    private readonly batchSize: number,
  ) {
    this.deleteWindow = db.prepare(`
      DELETE FROM log WHERE revision >= ? AND revision < ? AND (
        type = ${LogType.Delete}
        OR EXISTS (SELECT 1 FROM log n WHERE n.key = log.key AND n.revision > log.revision AND n.revision <= ?))`);
    this.deletePredecessors = db.prepare(`
      DELETE FROM log WHERE revision IN (
        SELECT prev_revision FROM log WHERE revision >= ? AND revision < ? AND prev_revision > 0 AND prev_revision < ?)`);
    this.setMeta = db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
    this.window = db.transaction((from: number, to: number, target: number) => {
      // Predecessors first: the window delete may remove the rows that name them. The last
      // window includes the target row itself, whose predecessor it supersedes too.
      const upTo = to === target ? target + 1 : to;
      let deleted = this.deletePredecessors.run(from, upTo, from).changes;
      deleted += this.deleteWindow.run(from, to, target).changes;
      this.setMeta.run('compacted_through', to);
      return deleted;
    });
  }

  /** Persists the new compacted revision before any row is deleted, so a restart refuses reads below it. */
  saveTarget(revision: number): void {
    this.db.transaction(() => this.setMeta.run('compacted', revision))();
  }

  /** Deletes superseded rows in [from, target) window by window; resolves to how far it got. */
  async run(from: number, target: number, progress: CompactionProgress): Promise<number> {
    let through = from;
    while (through < target) {
      const ready = progress.beforeWindow?.();
      if (ready !== undefined) await ready;
      if (progress.stopped()) break;
      const to = Math.min(target, through + this.batchSize);
      const deleted = this.window(through, to, target);
      through = to;
      progress.onBatch(deleted, through);
      if (through < target) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return through;
  }
}
