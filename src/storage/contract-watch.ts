/**
 * Store contract: watch — history then live, in revision order, exactly once, with prevKv,
 * prefix filtering, cancel, and errors for compacted start revisions.
 */

import assert from 'node:assert/strict';
import { brief, bytes, record, type StoreTest, settle, text } from './contract-helpers.js';
import type { StoreEvent } from './interface.js';

/** Registers the watch tests; every store must pass them unchanged. */
export function watchContract(test: StoreTest): void {
  test('replays history after fromRevision, then streams live events, each once and in order', async (store) => {
    await store.create('/w/a', bytes('a1'));
    await store.create('/w/b', bytes('b1'));
    await store.update('/w/a', bytes('a2'), 1);
    const w = record(store, '/w/', 1);
    await store.create('/w/c', bytes('c1'));
    await store.delete('/w/b');
    await w.waitFor(4);
    await settle();
    assert.deepEqual(w.events.map(brief), ['2 put /w/b=b1@2/c2', '3 put /w/a=a2@3/c1 prev=a1@1', '4 put /w/c=c1@4/c4', '5 delete /w/b=b1@5/c2 prev=b1@2']);
    assertOrdered(w.batches);
    w.cancel();
  });

  test('watch from 0 replays everything; from the current revision only what follows', async (store) => {
    for (let i = 0; i < 5; i++) await store.create(`/w/${i}`, bytes(`${i}`));
    const all = record(store, '/w/', 0);
    const fromNow = record(store, '/w/', store.currentRevision());
    await store.update('/w/0', bytes('x'), 1);
    await all.waitFor(6);
    await fromNow.waitFor(1);
    await settle();
    assert.deepEqual(
      all.events.map((e) => e.revision),
      [1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(fromNow.events.map(brief), ['6 put /w/0=x@6/c1 prev=0@1']);
    all.cancel();
    fromNow.cancel();
  });

  test('delete events carry the last value at the delete revision, and prevKv', async (store) => {
    const w = record(store, '/', 0);
    const r1 = await store.create('/d', bytes('v1'));
    const r2 = await store.update('/d', bytes('v2'), r1);
    const r3 = await store.delete('/d', r2);
    await w.waitFor(3);
    const [created, updated, deleted] = w.events;
    assert.equal(created.prevKv, undefined);
    assert.equal(updated.prevKv?.modRevision, r1);
    assert.equal(text(updated.prevKv?.value), 'v1');
    assert.equal(deleted.type, 'delete');
    assert.equal(deleted.revision, r3);
    assert.deepEqual({ ...deleted.kv, value: text(deleted.kv.value) }, { key: '/d', value: 'v2', createRevision: r1, modRevision: r3 });
    assert.deepEqual({ ...deleted.prevKv, value: text(deleted.prevKv?.value) }, { key: '/d', value: 'v2', createRevision: r1, modRevision: r2 });
    // The same shapes when replayed from history.
    const replay = record(store, '/', 0);
    await replay.waitFor(3);
    assert.deepEqual(replay.events.map(brief), w.events.map(brief));
    w.cancel();
    replay.cancel();
  });

  test('only events under the prefix are delivered', async (store) => {
    await store.create('/a/1', bytes('x'));
    await store.create('/b/1', bytes('x'));
    const w = record(store, '/a/', 0);
    await store.create('/ab', bytes('x'));
    await store.create('/b/2', bytes('x'));
    await store.create('/a/2', bytes('x'));
    await w.waitFor(2);
    await settle();
    assert.deepEqual(
      w.events.map((e) => e.kv.key),
      ['/a/1', '/a/2'],
    );
    w.cancel();
  });

  test('cancel stops delivery, including pending history', async (store) => {
    await store.create('/c/1', bytes('x'));
    const early = record(store, '/c/', 0);
    early.cancel(); // before its replay ran
    const w = record(store, '/c/', 0);
    await w.waitFor(1);
    w.cancel();
    await store.create('/c/2', bytes('x'));
    await settle();
    assert.equal(early.events.length, 0);
    assert.equal(w.events.length, 1);
    assert.equal(early.errors.length + w.errors.length, 0);
  });

  test('many concurrent writes reach a watcher in revision order, each once', async (store) => {
    const w = record(store, '/m/', 0);
    const revs = await Promise.all(Array.from({ length: 200 }, (_, i) => store.create(`/m/${i}`, bytes(`${i}`))));
    await w.waitFor(200);
    await settle();
    assert.deepEqual(
      w.events.map((e) => e.revision),
      [...revs].sort((a, b) => a - b),
    );
    assertOrdered(w.batches);
    w.cancel();
  });

  test('a watch started while writes are in flight misses none and repeats none', async (store) => {
    for (let i = 0; i < 50; i++) await store.create(`/r/${i}`, bytes(`${i}`));
    const inflight = Array.from({ length: 50 }, (_, i) => store.create(`/r/x${i}`, bytes(`${i}`)));
    const w = record(store, '/r/', 10);
    await Promise.all(inflight);
    await w.waitFor(90);
    await settle();
    assert.deepEqual(
      w.events.map((e) => e.revision),
      Array.from({ length: 90 }, (_, i) => i + 11),
    );
    w.cancel();
  });

  test('a sink that writes gets its events later, never re-entrantly or out of order', async (store) => {
    const seen: number[] = [];
    let depth = 0;
    let nested = false;
    const cancel = store.watch('/s/', 0, (events: StoreEvent[]) => {
      depth++;
      if (depth > 1) nested = true;
      for (const e of events) {
        seen.push(e.revision);
        if (e.kv.key === '/s/ping') void store.create('/s/pong', bytes('x'));
      }
      depth--;
    });
    await store.create('/s/ping', bytes('x'));
    // By time, not by event-loop turns: a remote store's (etcd's) write and its event take milliseconds.
    const deadline = Date.now() + 3000;
    while (seen.length < 2 && Date.now() < deadline) await settle(1);
    assert.deepEqual(seen, [1, 2]);
    assert.equal(nested, false);
    cancel();
  });

  test('a watch from a compacted revision ends with a Compacted error', async (store) => {
    for (let i = 0; i < 5; i++) await store.create(`/x/${i}`, bytes(`${i}`));
    await store.compact(4);
    const w = record(store, '/x/', 2);
    const err = await w.waitForError();
    assert.equal(err.code, 'Compacted');
    assert.equal(w.events.length, 0);
    // From the compacted revision itself history is complete.
    const ok = record(store, '/x/', 4);
    await ok.waitFor(1);
    assert.deepEqual(
      ok.events.map((e) => e.revision),
      [5],
    );
    ok.cancel();
  });

  test('a throwing sink ends only its own watch', async (store) => {
    const errors: string[] = [];
    store.watch(
      '/t/',
      0,
      () => {
        throw new Error('boom');
      },
      (err) => errors.push(err.code),
    );
    const good = record(store, '/t/', 0);
    await store.create('/t/1', bytes('x'));
    await store.create('/t/2', bytes('x'));
    await good.waitFor(2);
    assert.deepEqual(errors, ['Closed']);
    good.cancel();
  });
}

/** Every batch is ascending, and each batch starts after the previous one ended. */
function assertOrdered(batches: StoreEvent[][]): void {
  let last = 0;
  for (const batch of batches) {
    assert.ok(batch.length > 0, 'no empty batches');
    for (const e of batch) {
      assert.ok(e.revision > last, `revision ${e.revision} after ${last}`);
      last = e.revision;
    }
  }
}
