/**
 * The embedded SQLite Store (better-sqlite3): a log table for history and watch, a current
 * table for get/list, writes group-committed, compaction in small batches. See schema.ts,
 * writes.ts, group-commit.ts, compaction.ts and reads.ts for each concern.
 *
 * The revision counter lives in memory: loaded as max(log.revision) at open, advanced only
 * inside a commit, rolled back if that commit fails. Exclusive locking keeps it the only
 * writer. Everything is single-threaded and better-sqlite3 is synchronous, so a read and a
 * commit never interleave; a commit's writers are answered and its events published, in commit
 * order, once its WAL frames are fsynced (wal-sync.ts, off the event loop).
 */

import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import {
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type Store,
  StoreError,
  type StoreEvent,
  type WatchErrorSink,
  type WatchSink,
} from '../interface.js';
import { putCost, refusePut, resolveLimits, type StoreLimits } from '../limits.js';
import { WatchHub } from '../watch-hub.js';
import { Compaction } from './compaction.js';
import { GroupCommit, type Pending } from './group-commit.js';
import { Reads } from './reads.js';
import { Checkpoints } from './checkpoint.js';
import { WalSync } from './wal-sync.js';
import { type DatabaseTuning, openDatabase } from './schema.js';
import { type WriteOp, Writes } from './writes.js';

export interface SqliteStoreOptions extends DatabaseTuning, StoreLimits {
  /** Most writes applied in one transaction; default 1000 (bounds one commit's pause). */
  maxBatch?: number;
  /** Revisions examined per compaction transaction; default 500. */
  compactBatchSize?: number;
  /** Most events per watch replay batch; default 1000. */
  watchPageSize?: number;
  /** Most log rows a watch replay step scans; default 10 pages. */
  watchScanWindow?: number;
}

/** Counters for tests and metrics. */
export interface SqliteStoreStats {
  /** Write transactions committed by group commit. */
  commits: number;
  /** Writes that succeeded (each got a revision). */
  writes: number;
  /** Compaction transactions committed. */
  compactionBatches: number;
  /** Log rows deleted by compaction. */
  compactedRows: number;
}

export class SqliteStore implements Store {
  /** Live counters; read-only for callers. */
  readonly stats: SqliteStoreStats = { commits: 0, writes: 0, compactionBatches: 0, compactedRows: 0 };
  private rev: number;
  /**
   * The last revision whose commit is durable and published (currentRevision): watches start
   * and wait on it, so none counts a revision whose event has not reached the watchers yet.
   * Reads may be ahead of it, at `rev`.
   */
  private published: number;
  private compacted: number;
  private compactedThrough: number;
  private closed = false;
  private compacting: Promise<unknown> = Promise.resolve();
  private readonly reads: Reads;
  private readonly writes: Writes;
  private readonly queue: GroupCommit<WriteOp>;
  private readonly compaction: Compaction;
  private readonly hub: WatchHub;
  private readonly limits: Required<StoreLimits>;
  private readonly usedBytes: () => number;
  private readonly applyBatch: (batch: Pending<WriteOp>[], events: StoreEvent[], results: (number | StoreError)[]) => void;
  /** WAL checkpoints with their fsyncs off the event loop (file databases); else SQLite's own. */
  private readonly checkpoints: Checkpoints | undefined;

  private constructor(
    private readonly db: Database.Database,
    state: { revision: number; compacted: number; compactedThrough: number },
    opts: SqliteStoreOptions,
    /** Syncs the WAL off the event loop (file databases); undefined: SQLite syncs in each commit. */
    private readonly walSync: WalSync | undefined,
    path: string,
  ) {
    this.rev = state.revision;
    this.published = state.revision;
    this.limits = resolveLimits(opts);
    this.usedBytes = usedBytesOf(db);
    this.compacted = state.compacted;
    this.compactedThrough = state.compactedThrough;
    this.reads = new Reads(db);
    this.writes = new Writes(db);
    this.compaction = new Compaction(db, Math.max(1, opts.compactBatchSize ?? 500));
    this.queue = new GroupCommit((batch) => this.commit(batch), Math.max(1, opts.maxBatch ?? 1000));
    this.checkpoints =
      walSync &&
      Checkpoints.start(db, path, walSync, opts.walAutocheckpointPages ?? 1000, {
        hold: () => this.queue.hold(),
        release: () => this.queue.release(),
        failed: (err) => this.queue.rejectQueued(err),
      });
    this.hub = new WatchHub(
      {
        history: (prefix, after, upTo, limit) => this.reads.history(prefix, after, upTo, limit),
        currentRevision: () => this.published,
        compactedRevision: () => this.compacted,
      },
      { pageSize: opts.watchPageSize, scanWindow: opts.watchScanWindow },
    );
    this.applyBatch = db.transaction((batch: Pending<WriteOp>[], events: StoreEvent[], results: (number | StoreError)[]) => {
      // Pages in use, read once per batch, plus what each put of the batch adds: the quota check
      // costs O(1) per write. It comes before the op's own checks, as etcd refuses a put over
      // quota before comparing revisions.
      let size = Number.isFinite(this.limits.quotaBackendBytes) ? this.usedBytes() : 0;
      for (let i = 0; i < batch.length; i++) {
        const { op } = batch[i];
        if (op.kind !== 'delete') {
          const refused = refusePut(op.key, op.value, size, this.limits);
          if (refused) {
            results[i] = refused;
            continue;
          }
        }
        const outcome = this.writes.apply(op, this.rev + 1);
        if (outcome instanceof StoreError) {
          results[i] = outcome;
        } else {
          this.rev = outcome.revision;
          if (op.kind !== 'delete') size += putCost(op.key, op.value);
          events.push(outcome);
          results[i] = outcome.revision;
        }
      }
    });
  }

  /**
   * Opens or creates the store at path (parent directories 0700 too), readable by its owner
   * only; fails if another process holds it.
   */
  static open(path: string, opts: SqliteStoreOptions = {}): SqliteStore {
    if (path !== ':memory:' && !path.startsWith('file:')) createPrivate(path);
    const { db, ...state } = openDatabase(path, opts);
    return new SqliteStore(db, state, opts, WalSync.open(db, path), path);
  }

  /** Resolves to the value of key at the requested revision (current when absent or 0). */
  async get(key: string, opts: { revision?: number } = {}): Promise<KeyValue | undefined> {
    const at = this.readRevision(key, opts.revision);
    return at === this.rev ? this.reads.current(key) : this.reads.at(key, at);
  }

  /** Resolves to the keys under prefix at one revision, in key order, paginated by startKey/limit. */
  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const at = this.readRevision(prefix, opts.revision);
    const page = this.reads.range(prefix, opts.startKey, opts.limit ?? 0, at === this.rev ? undefined : at);
    return { ...page, revision: at };
  }

  /** Resolves to the new revision once durable; rejects with KeyExists when key is present. */
  create(key: string, value: Uint8Array): Promise<number> {
    return this.submit({ kind: 'create', key, value });
  }

  /** Resolves to the new revision once durable; rejects with KeyNotFound, or Conflict (with the current value). */
  update(key: string, value: Uint8Array, expectedModRevision: number): Promise<number> {
    return this.submit({ kind: 'update', key, value, expected: expectedModRevision });
  }

  /** Resolves to the delete's revision once durable; rejects with KeyNotFound, or Conflict when expectedModRevision differs. */
  delete(key: string, expectedModRevision?: number): Promise<number> {
    return this.submit({ kind: 'delete', key, expected: expectedModRevision });
  }

  /** Replays logged events under prefix after fromRevision, then streams live ones, one batch per commit. */
  watch(prefix: string, fromRevision: number, sink: WatchSink, onError?: WatchErrorSink): () => void {
    if (this.closed) {
      queueMicrotask(() => onError?.(new StoreError('Closed', prefix, 'store closed')));
      return () => {};
    }
    return this.hub.watch(prefix, fromRevision, sink, onError);
  }

  /** The revision of the last committed write (0 for a new store). */
  currentRevision(): number {
    return this.published;
  }

  /** Reads and watches below this revision fail with Compacted. */
  compactedRevision(): number {
    return this.compacted;
  }

  /** Bytes of the pages in use (the file's pages less its free list): O(1), read from the header. */
  dbSize(): number {
    if (this.closed) return 0;
    return this.usedBytes();
  }

  /**
   * Refuses reads below revision at once, then deletes superseded history in small
   * transactions between which writes proceed; resolves when done (or when the store closes).
   */
  compact(revision: number): Promise<void> {
    if (this.closed) return Promise.reject(new StoreError('Closed', '', 'store closed'));
    if (revision > this.rev) {
      return Promise.reject(new StoreError('FutureRevision', '', `compact to ${revision}: current revision is ${this.rev}`));
    }
    if (revision <= this.compacted) return Promise.resolve();
    this.compacted = revision;
    const run = this.compacting.then(async () => {
      // Written once no checkpoint is between its steps, as every transaction is.
      await this.checkpoints?.idle();
      if (this.closed) return;
      this.compaction.saveTarget(revision);
      await this.runCompaction(revision);
    });
    this.compacting = run.catch(() => {});
    return run;
  }

  /** Commits every queued write, ends watches with Closed and closes the database; idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    // Closed first, so a sink writing in reaction to the final events is refused rather than
    // keeping the flush going.
    this.closed = true;
    // A checkpoint between its steps ends first; SQLite then syncs its own (the final one at close).
    await this.checkpoints?.close();
    this.queue.flushAll();
    // Every commit is answered and published before the watches end.
    await this.walSync?.close();
    this.hub.close(new StoreError('Closed', '', 'store closed'));
    // A compaction window is synchronous, so none is mid-flight here; the loop sees `closed`
    // after its yield and stops. compacted_through makes the next open resume it.
    this.db.close();
  }

  private async runCompaction(target: number): Promise<void> {
    if (this.closed || this.compactedThrough >= target) return;
    this.compactedThrough = await this.compaction.run(this.compactedThrough, target, {
      onBatch: (deleted, through) => {
        this.compactedThrough = through;
        this.stats.compactionBatches++;
        this.stats.compactedRows += deleted;
      },
      stopped: () => this.closed,
      beforeWindow: () => this.checkpoints?.idle(),
    });
  }

  private submit(op: WriteOp): Promise<number> {
    if (this.closed) return Promise.reject(new StoreError('Closed', op.key, 'store closed'));
    // Bad input is refused here: inside the shared transaction it would fail the whole batch.
    const invalid = validate(op);
    if (invalid) return Promise.reject(invalid);
    // Too large for any store size: refused before it waits for a commit.
    if (op.kind !== 'delete') {
      const refused = refusePut(op.key, op.value, 0, this.limits);
      if (refused) return Promise.reject(refused);
    }
    return this.queue.submit(op);
  }

  private commit(batch: Pending<WriteOp>[]): void {
    const before = this.rev;
    const events: StoreEvent[] = [];
    const results: (number | StoreError)[] = new Array(batch.length);
    try {
      this.applyBatch(batch, events, results);
    } catch (err) {
      // The transaction rolled back: no revision of this batch exists.
      this.rev = before;
      for (const p of batch) p.reject(err);
      return;
    }
    this.stats.commits++;
    this.stats.writes += events.length;
    if (this.walSync === undefined) this.settle(batch, results, events);
    else this.walSync.after((err) => this.settle(batch, results, events, err));
    this.checkpoints?.afterCommit();
  }

  /**
   * Answers a committed batch's writers and publishes its events, once it is durable. When the
   * fsync meant to make it so failed, its writes fail; the events are still published, as the
   * database (and so every read) holds them.
   */
  private settle(batch: Pending<WriteOp>[], results: (number | StoreError)[], events: StoreEvent[], syncError?: Error): void {
    for (let i = 0; i < batch.length; i++) {
      const r = results[i];
      if (syncError !== undefined) batch[i].reject(syncError);
      else if (typeof r === 'number') batch[i].resolve(r);
      else batch[i].reject(r);
    }
    if (events.length > 0) this.published = events[events.length - 1].revision;
    this.hub.publish(events);
  }

  private readRevision(key: string, revision: number | undefined): number {
    if (this.closed) throw new StoreError('Closed', key, 'store closed');
    if (!revision) return this.rev;
    if (revision > this.rev) throw new StoreError('FutureRevision', key, `revision ${revision} is after the current revision ${this.rev}`);
    if (revision < this.compacted) throw new StoreError('Compacted', key, `revision ${revision} is before the compacted revision ${this.compacted}`);
    return revision;
  }
}

/**
 * Makes sure the database file exists with mode 0600 before SQLite opens it: SQLite would
 * create it 0644, and gives its -wal and -shm files the database file's mode.
 */
function createPrivate(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'a', 0o600));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`cannot create ${path} (${why}): check that its directory is writable`);
  }
  // Files an earlier version created more open are narrowed too; best effort, since a file
  // we may use but not chmod (another owner) is no reason to refuse to start.
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      chmodSync(file, 0o600);
    } catch {}
  }
}

/** Reads the used size from SQLite's header: page_count and freelist_count are O(1) pragmas. */
function usedBytesOf(db: Database.Database): () => number {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  const pageCount = db.prepare('PRAGMA page_count').pluck();
  const freelistCount = db.prepare('PRAGMA freelist_count').pluck();
  return () => ((pageCount.get() as number) - (freelistCount.get() as number)) * pageSize;
}

function validate(op: WriteOp): TypeError | undefined {
  if (typeof op.key !== 'string') return new TypeError('store key must be a string');
  if (op.kind !== 'delete' && !(op.value instanceof Uint8Array)) return new TypeError(`value for ${op.key} must be a Uint8Array`);
  const expected = op.kind === 'create' ? undefined : op.expected;
  if (expected !== undefined && !Number.isSafeInteger(expected)) return new TypeError(`expected revision for ${op.key} must be an integer`);
  return undefined;
}
