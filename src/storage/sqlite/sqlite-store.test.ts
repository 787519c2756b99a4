import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { storeContract } from '../contract.js';
import { bytes, record, rejectsWith, text } from '../contract-helpers.js';
import { SqliteStore, type SqliteStoreOptions } from './sqlite-store.js';

const root = mkdtempSync(join(tmpdir(), 'orch-sqlite-test-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(root, `s${n++}`, 'orch.db');

/** Opens a store in a new directory; cleanup closes it and removes the directory. */
function openFresh(opts: SqliteStoreOptions = {}) {
  const path = freshPath();
  const store = SqliteStore.open(path, opts);
  return {
    path,
    store,
    cleanup: async () => {
      await store.close();
      rmSync(join(path, '..'), { recursive: true, force: true });
    },
  };
}

storeContract('sqlite', async (limits) => openFresh(limits));
// The same contract with tiny batches, so compaction windows, replay pages and commit
// batches all take their multi-step paths, and a WAL checkpoint comes every few writes.
storeContract('sqlite (tiny batches)', async (limits) =>
  openFresh({ ...limits, compactBatchSize: 3, watchPageSize: 2, watchScanWindow: 5, maxBatch: 7, walAutocheckpointPages: 4 }),
);

describe('SqliteStore', () => {
  it('reopening keeps values, history, the revision and the compacted revision', async () => {
    const { path, store, cleanup } = openFresh();
    try {
      const r1 = await store.create('/a', bytes('a1'));
      await store.update('/a', bytes('a2'), r1);
      await store.create('/b', bytes('b1'));
      await store.delete('/b');
      await store.compact(2);
      await store.close();
      const again = SqliteStore.open(path);
      try {
        assert.equal(again.currentRevision(), 4);
        assert.equal(again.compactedRevision(), 2);
        assert.equal(text((await again.get('/a'))?.value), 'a2');
        assert.equal(text((await again.get('/b', { revision: 3 }))?.value), 'b1');
        await rejectsWith(again.get('/a', { revision: 1 }), 'Compacted');
        assert.equal(await again.create('/c', bytes('c')), 5);
        const w = record(again, '/', 2);
        await w.waitFor(3);
        assert.deepEqual(
          w.events.map((e) => `${e.revision} ${e.type} ${e.kv.key}`),
          ['3 put /b', '4 delete /b', '5 put /c'],
        );
        w.cancel();
      } finally {
        await again.close();
      }
    } finally {
      await cleanup();
    }
  });

  it('group commit: 200 parallel creates share a handful of transactions', async () => {
    const { store, cleanup } = openFresh();
    try {
      const revs = await Promise.all(Array.from({ length: 200 }, (_, i) => store.create(`/g/${i}`, bytes(`${i}`))));
      assert.equal(new Set(revs).size, 200);
      assert.equal(store.stats.writes, 200);
      assert.ok(store.stats.commits <= 2, `commits: ${store.stats.commits}`);
      // A rejected op inside a batch leaves the others committed.
      const mixed = await Promise.allSettled([
        store.create('/g/0', bytes('dup')),
        store.create('/g/new', bytes('x')),
        store.update('/g/1', bytes('y'), 1),
        store.update('/g/2', bytes('z'), 3),
      ]);
      assert.deepEqual(
        mixed.map((m) => (m.status === 'fulfilled' ? 'ok' : (m.reason as { code: string }).code)),
        ['KeyExists', 'ok', 'Conflict', 'ok'],
      );
      assert.equal(store.stats.commits, 2);
    } finally {
      await cleanup();
    }
  });

  it('ops on one key in one batch see each other in submission order', async () => {
    const { store, cleanup } = openFresh();
    try {
      const [c, u, d, c2] = await Promise.allSettled([
        store.create('/k', bytes('1')),
        store.update('/k', bytes('2'), 1),
        store.delete('/k', 2),
        store.create('/k', bytes('3')),
      ]);
      assert.deepEqual(
        [c, u, d, c2].map((x) => (x.status === 'fulfilled' ? x.value : 'rejected')),
        [1, 2, 3, 4],
      );
      assert.equal(store.stats.commits, 1);
      assert.equal((await store.get('/k'))?.createRevision, 4);
    } finally {
      await cleanup();
    }
  });

  it('close answers every committed write and delivers its events before the watches end', async () => {
    const path = freshPath();
    const store = SqliteStore.open(path);
    try {
      const seen: number[] = [];
      let closedAfter = -1;
      store.watch(
        '/w/',
        0,
        (events) => seen.push(...events.map((e) => e.revision)),
        () => {
          closedAfter = seen.length;
        },
      );
      const writes = [store.create('/w/a', bytes('1')), store.create('/w/b', bytes('2')), store.create('/w/c', bytes('3'))];
      await store.close();
      assert.deepEqual(await Promise.all(writes), [1, 2, 3]);
      assert.deepEqual(seen, [1, 2, 3]);
      assert.equal(closedAfter, 3, 'Closed came after the events');
      const reopened = SqliteStore.open(path);
      assert.equal(text((await reopened.get('/w/c'))?.value), '3');
      await reopened.close();
    } finally {
      rmSync(join(path, '..'), { recursive: true, force: true });
    }
  });

  it('invalid input is refused before it can fail a shared batch', async () => {
    const { store, cleanup } = openFresh();
    try {
      const good = store.create('/ok', bytes('x'));
      await assert.rejects(store.create('/bad', 'not bytes' as unknown as Uint8Array), TypeError);
      assert.equal(await good, 1);
    } finally {
      await cleanup();
    }
  });

  it('compaction runs in batches, lets writes through between them, and keeps reads exact', async () => {
    const { path, store, cleanup } = openFresh({ compactBatchSize: 10 });
    try {
      // 20 keys, 50 revisions each, interleaved: revisions 1..1000.
      for (let round = 0; round < 50; round++) {
        await Promise.all(
          Array.from({ length: 20 }, (_, k) =>
            round === 0 ? store.create(`/c/${k}`, bytes(`${k}:0`)) : store.update(`/c/${k}`, bytes(`${k}:${round}`), (round - 1) * 20 + k + 1),
          ),
        );
      }
      assert.equal(store.currentRevision(), 1000);
      const expectedAt = async (rev: number) => (await store.range('/c/', { revision: rev })).items.map((kv) => text(kv.value));
      const before = await expectedAt(900);
      const compaction = store.compact(900);
      let compactionDone = false;
      void compaction.then(() => {
        compactionDone = true;
      });
      // Committed between compaction batches; its answer waits for the WAL fsync.
      const commits = store.stats.commits;
      const write = store.create('/during', bytes('x'));
      while (store.stats.commits === commits) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(compactionDone, false, 'a write committed while compaction was still running');
      const during = await write;
      await compaction;
      assert.ok(store.stats.compactionBatches >= 90, `batches: ${store.stats.compactionBatches}`);
      assert.deepEqual(await expectedAt(900), before);
      assert.equal(text((await store.get('/c/3', { revision: 950 }))?.value), '3:47');
      assert.equal(text((await store.get('/during', { revision: during }))?.value), 'x');
      await store.close();
      // Each key keeps its newest row <= 900 (revisions 881..900) and everything after it.
      const db = new Database(path, { readonly: true });
      const { n: rows, min } = db.prepare('SELECT count(*) AS n, min(revision) AS min FROM log').get() as { n: number; min: number };
      db.close();
      assert.equal(min, 881);
      assert.equal(rows, 1001 - 880);
    } finally {
      await cleanup();
    }
  });

  it('rows kept by one compaction are removed by a later one once superseded', async () => {
    const { path, store, cleanup } = openFresh({ compactBatchSize: 4 });
    try {
      await store.create('/a', bytes('a1')); // 1, kept by compact(3) as /a's newest row <= 3
      await store.create('/b', bytes('b1')); // 2
      await store.create('/c', bytes('c1')); // 3
      await store.compact(3);
      await store.update('/a', bytes('a2'), 1); // 4 supersedes row 1
      await store.delete('/b'); // 5 supersedes row 2
      await store.create('/b', bytes('b2')); // 6
      await store.create('/d', bytes('d1')); // 7
      await store.compact(7);
      assert.equal(text((await store.get('/c', { revision: 7 }))?.value), 'c1');
      assert.equal(text((await store.get('/a', { revision: 7 }))?.value), 'a2');
      await store.close();
      const db = new Database(path, { readonly: true });
      const revs = (db.prepare('SELECT revision FROM log ORDER BY revision').all() as { revision: number }[]).map((r) => r.revision);
      db.close();
      // c@3 (still current), a@4, b@6, d@7; a@1, b@2 and the tombstone b@5 are gone.
      assert.deepEqual(revs, [3, 4, 6, 7]);
    } finally {
      await cleanup();
    }
  });

  it('compaction never deletes the log row a live key reads its current value from', async () => {
    const { path, store, cleanup } = openFresh({ compactBatchSize: 2 });
    try {
      const r1 = await store.create('/a', bytes('a1'));
      const r2 = await store.update('/a', bytes('a2'), r1);
      await store.create('/b', bytes('b1'));
      await store.delete('/b');
      await store.compact(await store.create('/c', bytes('c1')));
      assert.equal(text((await store.get('/a'))?.value), 'a2');
      await store.close();
      const db = new Database(path, { readonly: true });
      const revs = (db.prepare('SELECT revision FROM log ORDER BY revision').all() as { revision: number }[]).map((r) => r.revision);
      const dangling = db.prepare('SELECT count(*) AS n FROM kv LEFT JOIN log ON log.revision = kv.mod_revision WHERE log.revision IS NULL').get();
      db.close();
      // a1, b1 and b's tombstone went; a2 (what kv points at) and c1 stay.
      assert.deepEqual(revs, [r2, 5]);
      assert.deepEqual(dangling, { n: 0 });
      const again = SqliteStore.open(path);
      try {
        assert.equal(text((await again.get('/a'))?.value), 'a2');
      } finally {
        await again.close();
      }
    } finally {
      await cleanup();
    }
  });

  it('refuses a file with another schema version instead of migrating or emptying it', async () => {
    const path = freshPath();
    mkdirSync(join(path, '..'));
    const db = new Database(path);
    db.exec('CREATE TABLE kv (key TEXT PRIMARY KEY, value BLOB NOT NULL, create_revision INTEGER NOT NULL, mod_revision INTEGER NOT NULL)');
    db.close();
    assert.throws(() => SqliteStore.open(path), /schema version 0, this build needs 2/);
    const still = new Database(path, { readonly: true });
    assert.deepEqual(still.prepare('SELECT name FROM sqlite_master').all(), [{ name: 'kv' }, { name: 'sqlite_autoindex_kv_1' }]);
    still.close();
  });

  it('a compaction cut short by close resumes at the next compact after reopening', async () => {
    const { path, store, cleanup } = openFresh({ compactBatchSize: 5 });
    try {
      for (let i = 0; i < 100; i++) await (i === 0 ? store.create('/r', bytes('0')) : store.update('/r', bytes(`${i}`), i));
      const running = store.compact(100);
      await new Promise((r) => setImmediate(r));
      await store.close();
      await running;
      const again = SqliteStore.open(path, { compactBatchSize: 5 });
      try {
        assert.equal(again.compactedRevision(), 100);
        assert.equal(text((await again.get('/r', { revision: 100 }))?.value), '99');
        await again.update('/r', bytes('100'), 100);
        await again.compact(101);
        assert.ok(again.stats.compactedRows > 0, 'the rest of the first compaction ran');
      } finally {
        await again.close();
      }
      const db = new Database(path, { readonly: true });
      const { n } = db.prepare('SELECT count(*) AS n FROM log').get() as { n: number };
      db.close();
      assert.equal(n, 1);
    } finally {
      await cleanup();
    }
  });

  it('a second process (or handle) cannot open a store that is in use', async () => {
    const { path, store, cleanup } = openFresh();
    try {
      await store.create('/a', bytes('x'));
      assert.throws(() => SqliteStore.open(path), /locked|busy/i);
    } finally {
      await cleanup();
    }
  });

  it('a file that is no database is refused with one line naming it and the way out, and left untouched', () => {
    const path = freshPath();
    mkdirSync(join(path, '..'), { recursive: true });
    const garbage = Buffer.alloc(8192, 'not a database ');
    writeFileSync(path, garbage);
    assert.throws(
      () => SqliteStore.open(path),
      (err: Error) =>
        err.message ===
        `${path} is not a usable store (file is not a database): move it (and its -wal file) aside or restore a backup; without it the server starts empty`,
    );
    assert.deepEqual(readFileSync(path), garbage);
  });

  it('the database file and its -wal are private to the owner (0600), its new directory 0700', async () => {
    const { path, store, cleanup } = openFresh();
    try {
      await store.create('/a', bytes('x'));
      assert.equal(statSync(join(path, '..')).mode & 0o777, 0o700);
      assert.equal(statSync(path).mode & 0o777, 0o600);
      assert.equal(statSync(`${path}-wal`).mode & 0o777, 0o600);
    } finally {
      await cleanup();
    }
  });

  it('checkpoints keep the WAL small, never fsync on the event loop, and lose nothing', async () => {
    const { path, store, cleanup } = openFresh({ walAutocheckpointPages: 64 });
    const value = (i: number) => new Uint8Array(200 * 1024).fill(i % 251);
    try {
      // SQLite's own checkpoints and fsyncs are off: checkpoint.ts makes them in the thread pool.
      const db = (store as unknown as { db: Database.Database }).db;
      assert.equal(db.pragma('synchronous', { simple: true }), 0);
      assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 0);
      let largestWal = 0;
      const writes: Promise<number>[] = [];
      for (let i = 0; i < 60; i++) {
        writes.push(store.create(`/big/${i}`, value(i)));
        // Reads go on amid the writes and their checkpoints.
        if (i % 10 === 9) assert.ok((await store.range('/big/')).items.length >= i - 2);
        if (i % 3 === 2) {
          await Promise.all(writes.splice(0));
          largestWal = Math.max(largestWal, statSync(`${path}-wal`).size);
        }
      }
      await store.compact(store.currentRevision());
      // 60 writes of 200 KiB are 12 MB; the WAL is emptied whenever it passes 64 pages, so it
      // never holds much more than one batch of three writes past that.
      assert.ok(largestWal < 2 * 1024 * 1024, `WAL grew to ${largestWal} bytes`);
      await store.close();
      const again = SqliteStore.open(path);
      try {
        const all = await again.range('/big/');
        assert.equal(all.items.length, 60);
        for (const kv of all.items) assert.deepEqual(Buffer.from(kv.value), Buffer.from(value(Number(kv.key.slice(5)))));
      } finally {
        await again.close();
      }
    } finally {
      await cleanup();
    }
  });

  it('opens fast', async () => {
    const { path, store, cleanup } = openFresh();
    try {
      await Promise.all(Array.from({ length: 2000 }, (_, i) => store.create(`/f/${i}`, new Uint8Array(1024))));
      await store.close();
      const t0 = performance.now();
      const again = SqliteStore.open(path);
      const ms = performance.now() - t0;
      assert.equal(again.currentRevision(), 2000);
      await again.close();
      assert.ok(ms < 100, `open took ${ms.toFixed(1)} ms`);
    } finally {
      await cleanup();
    }
  });
});
