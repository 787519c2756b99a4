/**
 * Read queries of the SQLite store: current state from `kv` joined to the `log` row at its
 * mod_revision (kv holds no value), old revisions and watch history from `log`. All
 * synchronous (better-sqlite3); callers check revisions against the compacted and current
 * revision first.
 *
 * Why reads at an old revision R are correct after compaction to C <= R: the value of a key at
 * R is its newest log row <= R. Compaction deletes a row only when a newer row of the same key
 * exists at or before C (or the row is a tombstone, which reads the same as no row), so the
 * newest row <= R is never deleted unless it was a tombstone.
 *
 * Why the current join never misses: kv points at a live key's newest log row, a put. Every
 * compaction rule deletes only a tombstone or a row that a newer row of its key supersedes,
 * so that row outlives any compaction for as long as kv points at it.
 */

import type Database from 'better-sqlite3';
import type { KeyValue, StoreEvent } from '../interface.js';
import { compareKeys, prefixEnd } from '../keys.js';
import { LogType } from './schema.js';

interface KvRow {
  key: string;
  value: Buffer;
  create_revision: number;
  mod_revision: number;
}

interface LogRow {
  revision: number;
  key: string;
  type: number;
  value: Buffer | null;
  create_revision: number;
  prev_revision: number;
  prev_value: Buffer | null;
  prev_create: number | null;
}

export interface RangePage {
  items: KeyValue[];
  more: boolean;
  count: number;
}

/** A statement with and without the upper key bound (an empty prefix has none). */
interface Bounded {
  bounded: Database.Statement;
  open: Database.Statement;
}

export class Reads {
  private readonly getCurrent: Database.Statement;
  private readonly getAt: Database.Statement;
  private readonly rangeCurrent: Bounded;
  private readonly countCurrent: Bounded;
  private readonly rangeAt: Bounded;
  private readonly countAt: Bounded;
  private readonly historyStmt: Bounded;

  constructor(db: Database.Database) {
    const both = (sql: (upper: string) => string, column = 'key'): Bounded => ({
      bounded: db.prepare(sql(`AND ${column} < @end`)),
      open: db.prepare(sql('')),
    });
    // CROSS JOIN keeps kv the outer loop: one key (or key range) probe, then a rowid lookup each.
    const current = 'SELECT kv.key, l.value, kv.create_revision, kv.mod_revision FROM kv CROSS JOIN log l ON l.revision = kv.mod_revision';
    this.getCurrent = db.prepare(`${current} WHERE kv.key = ?`);
    this.getAt = db.prepare(
      'SELECT key, value, create_revision, revision AS mod_revision, type FROM log WHERE key = ? AND revision <= ? ORDER BY revision DESC LIMIT 1',
    );
    this.rangeCurrent = both((upper) => `${current} WHERE kv.key >= @start ${upper} ORDER BY kv.key LIMIT @limit`, 'kv.key');
    this.countCurrent = both((upper) => `SELECT count(*) AS n FROM kv WHERE key >= @start ${upper}`);
    // The newest row per key at or before @rev, unless it is a delete. Walking the (key,
    // revision) index in key order lets LIMIT stop early: paginated lists (continue tokens)
    // read every page after the first at an old revision.
    const latestAt = (upper: string) => `
      FROM log l
      WHERE l.key >= @start ${upper} AND l.revision <= @rev AND l.type != ${LogType.Delete}
        AND NOT EXISTS (SELECT 1 FROM log n WHERE n.key = l.key AND n.revision > l.revision AND n.revision <= @rev)`;
    this.rangeAt = both(
      (upper) => `SELECT l.key, l.value, l.create_revision, l.revision AS mod_revision ${latestAt(upper)} ORDER BY l.key LIMIT @limit`,
      'l.key',
    );
    // Counting as of @rev row by row costs a probe per key; instead take today's count and undo
    // the keys written since @rev (recent history, found by walking revisions, not keys).
    this.countAt = both(
      (upper) => `
      SELECT (SELECT count(*) FROM kv WHERE key >= @start ${upper}) - coalesce((
        SELECT sum((SELECT count(*) FROM kv WHERE kv.key = d.key) - coalesce((
          SELECT m.type != ${LogType.Delete} FROM log m WHERE m.key = d.key AND m.revision <= @rev ORDER BY m.revision DESC LIMIT 1), 0))
        FROM (SELECT DISTINCT key FROM log NOT INDEXED WHERE revision > @rev AND key >= @start ${upper}) AS d), 0) AS n`,
    );
    // `+l.key` keeps the planner on the revision (rowid) order: watches replay recent history,
    // so walking revisions forward beats walking a key range of all history and sorting it.
    this.historyStmt = both(
      (upper) => `
      SELECT l.revision, l.key, l.type, l.value, l.create_revision, l.prev_revision,
             p.value AS prev_value, p.create_revision AS prev_create
      FROM log l LEFT JOIN log p ON p.revision = l.prev_revision
      WHERE l.revision > @after AND l.revision <= @upTo AND +l.key >= @start ${upper}
      ORDER BY l.revision LIMIT @limit`,
      '+l.key',
    );
  }

  /** The live value of key at the current revision. */
  current(key: string): KeyValue | undefined {
    const row = this.getCurrent.get(key) as KvRow | undefined;
    return row && toKeyValue(row);
  }

  /** The value of key at revision `at` (at >= compacted revision). */
  at(key: string, at: number): KeyValue | undefined {
    const row = this.getAt.get(key, at) as (KvRow & { type: number }) | undefined;
    return row && row.type !== LogType.Delete ? toKeyValue(row) : undefined;
  }

  /** Keys under prefix from startKey on; `at` undefined reads the current table. */
  range(prefix: string, startKey: string | undefined, limit: number, at: number | undefined): RangePage {
    const start = startKey !== undefined && compareKeys(startKey, prefix) > 0 ? startKey : prefix;
    const end = prefixEnd(prefix);
    const pick = (s: Bounded) => (end === undefined ? s.open : s.bounded);
    // better-sqlite3 rejects a missing named parameter, so @end and @rev are set only when used.
    const params: Record<string, string | number> = { start };
    if (end !== undefined) params.end = end;
    if (at !== undefined) params.rev = at;
    // Fetch one extra row to learn whether more follow, and count only when they do.
    const rows = pick(at === undefined ? this.rangeCurrent : this.rangeAt).all({ ...params, limit: limit > 0 ? limit + 1 : -1 }) as KvRow[];
    const more = limit > 0 && rows.length > limit;
    if (more) rows.length = limit;
    const items = rows.map(toKeyValue);
    const count = more ? (pick(at === undefined ? this.countCurrent : this.countAt).get(params) as { n: number }).n : items.length;
    return { items, more, count };
  }

  /** Events under prefix with after < revision <= upTo, ascending, at most limit (for watch replay). */
  history(prefix: string, after: number, upTo: number, limit: number): StoreEvent[] {
    const end = prefixEnd(prefix);
    const params: Record<string, unknown> = { after, upTo, start: prefix, limit };
    if (end !== undefined) params.end = end;
    const rows = (end === undefined ? this.historyStmt.open : this.historyStmt.bounded).all(params) as LogRow[];
    return rows.map(toEvent);
  }
}

function toKeyValue(row: KvRow): KeyValue {
  return { key: row.key, value: row.value, createRevision: row.create_revision, modRevision: row.mod_revision };
}

/**
 * A log row as a watch event. A delete's kv is the last value stamped with the delete's
 * revision as modRevision (what Kubernetes shows as the deleted object's resourceVersion).
 */
export function toEvent(row: LogRow): StoreEvent {
  const prevKv: KeyValue | undefined =
    row.prev_revision > 0 && row.prev_value !== null
      ? { key: row.key, value: row.prev_value, createRevision: row.prev_create ?? row.create_revision, modRevision: row.prev_revision }
      : undefined;
  if (row.type === LogType.Delete) {
    const kv: KeyValue = {
      key: row.key,
      value: prevKv?.value ?? new Uint8Array(0),
      createRevision: row.create_revision,
      modRevision: row.revision,
    };
    return { type: 'delete', kv, prevKv, revision: row.revision };
  }
  const kv: KeyValue = { key: row.key, value: row.value ?? new Uint8Array(0), createRevision: row.create_revision, modRevision: row.revision };
  return prevKv ? { type: 'put', kv, prevKv, revision: row.revision } : { type: 'put', kv, revision: row.revision };
}
