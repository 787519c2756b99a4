/**
 * On-disk layout of the SQLite store and how a database file is opened.
 *
 * - `log`: one row per revision (revision = rowid, so appends and "revision > N" scans are
 *   B-tree walks in revision order). Deletes are rows with type 2 and a NULL value;
 *   prev_revision points at the row a write replaced (0 for a create), so watch events get
 *   prevKv with a rowid lookup instead of storing the old value twice.
 * - `kv`: every live key with its create and mod revision, so get/list at the current revision
 *   never scan history (kine's `MAX(id) GROUP BY name` is what we avoid). It holds no value:
 *   the value is read from the log row at mod_revision (a rowid lookup), so each write stores
 *   its value once and a commit writes about half the pages. WITHOUT ROWID: the key is the
 *   only B-tree, not a rowid table plus a key index.
 * - `meta`: the compacted revision, and how far compaction has actually deleted rows.
 *
 * `PRAGMA user_version` holds SCHEMA_VERSION. A file from another version is refused, not
 * migrated or recreated: there are no users to migrate yet, and silently emptying a data
 * directory would lose whatever it held.
 */

import Database from 'better-sqlite3';

/** The `log.type` column. */
export const LogType = { Create: 0, Update: 1, Delete: 2 } as const;

/** The layout version written to `PRAGMA user_version`; 0 is a file that predates versioning. */
export const SCHEMA_VERSION = 2;

const SCHEMA = `
CREATE TABLE log (
  revision INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  type INTEGER NOT NULL,
  value BLOB,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL
);
CREATE INDEX log_key_revision ON log (key, revision);
CREATE TABLE kv (
  key TEXT PRIMARY KEY,
  create_revision INTEGER NOT NULL,
  mod_revision INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE meta (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
PRAGMA user_version = ${SCHEMA_VERSION};
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

/**
 * Opens (creating if needed) a store database, durable per commit, locked to this process.
 * Failures a user can fix (a file that is no database, a file in use, a directory that is not
 * writable) throw an Error whose one-line message names the file and the fix.
 */
export function openDatabase(path: string, tuning: DatabaseTuning = {}): OpenedDatabase {
  try {
    return openUnchecked(path, tuning);
  } catch (err) {
    throw explainOpenError(path, err);
  }
}

function openUnchecked(path: string, tuning: DatabaseTuning): OpenedDatabase {
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
    db.transaction(() => prepareSchema(db, path)).immediate();
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

/** The error a user sees for a failed open: what is wrong with which file, and what to do. */
function explainOpenError(path: string, err: unknown): unknown {
  const code = (err as { code?: unknown }).code;
  const why = err instanceof Error ? err.message : String(err);
  switch (code) {
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return new Error(`${path} is not a usable store (${why}): move it (and its -wal file) aside or restore a backup; without it the server starts empty`);
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new Error(`${path} is locked by another process (${why}): stop the other server using this data directory, or choose another --data-dir`);
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
    case 'SQLITE_AUTH':
    case 'SQLITE_IOERR':
    case 'SQLITE_FULL':
      return new Error(`cannot open ${path} (${why}): check that its directory exists, is writable and has free space`);
  }
  return err;
}

/** Creates the tables in an empty file; throws if the file holds another schema version. */
function prepareSchema(db: Database.Database, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === SCHEMA_VERSION) return;
  // Version 0 is also what an empty file reports; only a file without tables is new.
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
  if (version === 0 && tables.n === 0) {
    db.exec(SCHEMA);
    return;
  }
  throw new Error(
    `${path}: storage schema version ${version}, this build needs ${SCHEMA_VERSION} and has no migration; ` +
      'move or delete the file (and its -wal) to start with an empty store',
  );
}
