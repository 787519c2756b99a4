/**
 * The floor under the list figures: raw better-sqlite3 reading the rows a list returns from the
 * server's own state.db, in this process, and joining their bytes into one body (the least a
 * server must do). The schema is discovered, not assumed (src/storage/sqlite/schema.ts may
 * change): values live either in the current-state table or in the log row it points at.
 */
import Database from 'better-sqlite3';
import { median } from './cache-harness.js';

export interface RawListTimes {
  /** Median ms to read every row under the prefix and join the values. */
  fullMs: number;
  /** Median ms to read the same rows 500 at a time by key (keyset pagination), joining each page. */
  paginatedMs: number;
  rows: number;
}

const COMMA = Buffer.from(',');

/** Times full and paginated reads of the keys under `prefix` in the (closed) store at `dbPath`. */
export function rawListTimes(dbPath: string, prefix: string, pageSize: number, fullReps: number, pageReps: number): RawListTimes {
  const db = openReadOnly(dbPath);
  try {
    const { full, page } = listQueries(db);
    // Every key under prefix is >= prefix and < end ('/' + 1 = '0').
    const end = `${prefix.slice(0, -1)}0`;
    full.all(prefix, end); // warm the page cache, as the server's cache is warm
    const fulls: number[] = [];
    let rows = 0;
    for (let rep = 0; rep < fullReps; rep++) {
      const t0 = performance.now();
      const values = full.all(prefix, end) as Buffer[];
      joinValues(values);
      fulls.push(performance.now() - t0);
      rows = values.length;
    }
    const walks: number[] = [];
    for (let rep = 0; rep < pageReps; rep++) {
      const t0 = performance.now();
      let after = '';
      let got = 0;
      for (;;) {
        const batch = page.all(after || prefix, end, pageSize) as [string, Buffer][];
        joinValues(batch.map((r) => r[1]));
        got += batch.length;
        if (batch.length < pageSize) break;
        after = batch[batch.length - 1]?.[0] ?? end;
      }
      walks.push(performance.now() - t0);
      if (got !== rows) throw new Error(`raw paginated read of ${prefix}: ${got} rows, full read had ${rows}`);
    }
    return { fullMs: median(fulls), paginatedMs: median(walks), rows };
  } finally {
    db.close();
  }
}

function joinValues(values: Buffer[]): Buffer {
  const parts: Buffer[] = [];
  for (const v of values) {
    if (parts.length > 0) parts.push(COMMA);
    parts.push(v);
  }
  return Buffer.concat(parts);
}

function openReadOnly(path: string): Database.Database {
  return new Database(path, { readonly: true, fileMustExist: true });
}

/** A full-range and a keyset-page query over whatever layout the file has (kv holding values, or kv -> log). */
function listQueries(db: Database.Database): { full: Database.Statement; page: Database.Statement } {
  const columns = (table: string) => new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name));
  const kv = columns('kv');
  const log = columns('log');
  let from: string;
  let value: string;
  if (kv.has('key') && kv.has('value')) {
    from = 'kv';
    value = 'kv.value';
  } else if (kv.has('key') && kv.has('mod_revision') && log.has('revision') && log.has('value')) {
    // CROSS JOIN keeps kv the outer loop: a key-range walk, then a rowid lookup per key.
    from = 'kv CROSS JOIN log ON log.revision = kv.mod_revision';
    value = 'log.value';
  } else {
    throw new Error(`unknown store layout: kv(${[...kv].join(', ')}), log(${[...log].join(', ')}); update bench/raw-sqlite.ts`);
  }
  return {
    full: db.prepare(`SELECT ${value} FROM ${from} WHERE kv.key >= ? AND kv.key < ? ORDER BY kv.key`).pluck(),
    page: db.prepare(`SELECT kv.key, ${value} FROM ${from} WHERE kv.key > ? AND kv.key < ? ORDER BY kv.key LIMIT ?`).raw(),
  };
}
