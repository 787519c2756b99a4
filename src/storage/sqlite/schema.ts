/**
 * On-disk layout of the SQLite store and how a database file is opened.
 *
 * - `log`: one row per revision (revision = rowid, so appends and "revision > N" scans are
 *   B-tree walks in revision order). Deletes are rows with type 2 and a NULL value;
 *   prev_revision points at the row a write replaced (0 for a create), so watch events get
 *   prevKv with a rowid lookup instead of storing the old value twice.
 * - `kv`: the current value of every live key, so get/list at the current revision never
 *   scan history (kine's `MAX(id) GROUP BY name` is what we avoid).
 * - `meta`: the compacted revision, and how far compaction has actually deleted rows.
 */

import Database from 'better-sqlite3';

/** The `log.type` column. */
export const LogType = { Create: 0, Update: 1, Delete: 2 } as const;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS log (
  revision INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  value BLOB,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS log_key_revision ON log (key, revision);
CREATE TABLE IF NOT EXISTS kv (
  key TEXT PRIMARY KEY,
  value BLOB NOT NULL,
  create_revision INTEGER NOT NULL,
  mod_revision INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
`;

export interface OpenedDatabase {
  db: Database.Database;
  /** max(revision) of the log: the last committed revision (0 for a new store). */
  revision: number;
  /** Reads and watches below this revision are refused. */
  compacted: number;
  /** Log rows below this revision have been compacted; rows in [compactedThrough, compacted) may remain. */
  compactedThrough: number;
}

export interface DatabaseTuning {
  /** SQLite page cache in KiB; default 32 MiB. */
  cacheSizeKiB?: number;
  /** WAL pages that trigger a checkpoint; default SQLite's 1000. */
  walAutocheckpointPages?: number;
}

/** Opens (creating if needed) a store database, durable per commit, locked to this process. */
export function openDatabase(path: string, tuning: DatabaseTuning = {}): OpenedDatabase {
  // timeout 0: a second process on the same file fails at once instead of waiting 5 s.
  const db = new Database(path, { timeout: 0 });
  try {
    // The revision counter lives in memory, so two writers on one file would hand out the same
    // revisions. Exclusive locking makes a second process fail to open instead, and lets WAL
    // keep its index in heap memory (no -shm file).
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    // FULL: the WAL is fsynced at every commit, so an acknowledged write survives power loss.
    db.pragma('synchronous = FULL');
    db.pragma(`cache_size = ${-(tuning.cacheSizeKiB ?? 32 * 1024)}`);
    db.pragma('temp_store = MEMORY');
    if (tuning.walAutocheckpointPages !== undefined) db.pragma(`wal_autocheckpoint = ${tuning.walAutocheckpointPages}`);
    // A write transaction takes the exclusive lock now, not at the first client write.
    db.transaction(() => db.exec(SCHEMA)).immediate();
    const revision = (db.prepare('SELECT max(revision) AS r FROM log').get() as { r: number | null }).r ?? 0;
    const meta = new Map((db.prepare('SELECT name, value FROM meta').all() as { name: string; value: number }[]).map((r) => [r.name, r.value]));
    const compacted = meta.get('compacted') ?? 0;
    const compactedThrough = meta.get('compacted_through') ?? 0;
    return { db, revision: Math.max(revision, compacted), compacted, compactedThrough };
  } catch (err) {
    db.close();
    throw err;
  }
}
