/**
 * One write applied inside the group-commit transaction. Each op is checked on its own against
 * the state left by the ops before it in the same transaction, so a KeyExists, Conflict or
 * KeyNotFound rejects that op only, and consumes no revision.
 */

import type Database from 'better-sqlite3';
import { type KeyValue, StoreError, type StoreEvent } from '../interface.js';
import { LogType } from './schema.js';

export type WriteOp =
  | { kind: 'create'; key: string; value: Uint8Array }
  | { kind: 'update'; key: string; value: Uint8Array; expected: number }
  | { kind: 'delete'; key: string; expected?: number };

interface KvRow {
  value: Buffer;
  create_revision: number;
  mod_revision: number;
}

export class Writes {
  private readonly insertLog: Database.Statement;
  private readonly insertKv: Database.Statement;
  private readonly selectKv: Database.Statement;
  private readonly updateKv: Database.Statement;
  private readonly deleteKv: Database.Statement;

  constructor(db: Database.Database) {
    this.insertLog = db.prepare('INSERT INTO log (revision, key, type, value, create_revision, prev_revision) VALUES (?, ?, ?, ?, ?, ?)');
    // ON CONFLICT DO NOTHING lets a create test for existence and insert in one statement.
    this.insertKv = db.prepare('INSERT INTO kv (key, create_revision, mod_revision) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING');
    // kv holds no value (schema.ts): the old value, for prevKv, is the log row at mod_revision.
    this.selectKv = db.prepare('SELECT l.value, kv.create_revision, kv.mod_revision FROM kv CROSS JOIN log l ON l.revision = kv.mod_revision WHERE kv.key = ?');
    this.updateKv = db.prepare('UPDATE kv SET mod_revision = ? WHERE key = ?');
    this.deleteKv = db.prepare('DELETE FROM kv WHERE key = ?');
  }

  /** Applies op as revision rev (inside a transaction); returns its event, or the error that rejects only this op. */
  apply(op: WriteOp, rev: number): StoreEvent | StoreError {
    const { key } = op;
    if (op.kind === 'create') {
      if (this.insertKv.run(key, rev, rev).changes === 0) return new StoreError('KeyExists', key);
      this.insertLog.run(rev, key, LogType.Create, op.value, rev, 0);
      return { type: 'put', kv: { key, value: op.value, createRevision: rev, modRevision: rev }, revision: rev };
    }
    const row = this.selectKv.get(key) as KvRow | undefined;
    if (!row) return new StoreError('KeyNotFound', key);
    const prevKv: KeyValue = { key, value: row.value, createRevision: row.create_revision, modRevision: row.mod_revision };
    if (op.expected !== undefined && op.expected !== row.mod_revision) {
      return new StoreError('Conflict', key, `Conflict: ${key} is at ${row.mod_revision}, not ${op.expected}`, prevKv);
    }
    if (op.kind === 'update') {
      this.updateKv.run(rev, key);
      this.insertLog.run(rev, key, LogType.Update, op.value, row.create_revision, row.mod_revision);
      const kv = { key, value: op.value, createRevision: row.create_revision, modRevision: rev };
      return { type: 'put', kv, prevKv, revision: rev };
    }
    this.deleteKv.run(key);
    this.insertLog.run(rev, key, LogType.Delete, null, row.create_revision, row.mod_revision);
    // The delete event's kv is the last value stamped with the delete's revision (interface.ts).
    return { type: 'delete', kv: { ...prevKv, modRevision: rev }, prevKv, revision: rev };
  }
}
