/**
 * The behaviour every Store must show, as a node:test suite a backend's test file registers:
 * `storeContract('sqlite', async (limits) => ({ store, cleanup }))`. This file covers writes,
 * revisions, concurrency and close; contract-reads.ts, contract-watch.ts,
 * contract-compaction.ts and contract-limits.ts cover the rest.
 */

import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { compactionContract } from './contract-compaction.js';
import { bytes, type MakeStore, type StoreTest, record, rejectsWith, storeTest, text } from './contract-helpers.js';
import { limitsContract } from './contract-limits.js';
import { readsContract } from './contract-reads.js';
import { watchContract } from './contract-watch.js';

/** Registers the full Store contract suite for one backend; makeStore returns a fresh, empty store per test. */
export function storeContract(name: string, makeStore: MakeStore): void {
  describe(`${name} store contract`, () => {
    const test = storeTest(makeStore);
    describe('writes', () => writesContract(test));
    describe('reads', () => readsContract(test));
    describe('watch', () => watchContract(test));
    describe('compaction', () => compactionContract(test));
    describe('concurrency and close', () => concurrencyContract(test));
    describe('limits', () => limitsContract(makeStore));
  });
}

function writesContract(test: StoreTest): void {
  test('a new store is at revision 0 with nothing compacted', async (store) => {
    assert.equal(store.currentRevision(), 0);
    assert.equal(store.compactedRevision(), 0);
    assert.equal(await store.get('/a'), undefined);
  });

  test('create stores the value at the next revision', async (store) => {
    const r1 = await store.create('/a', bytes('one'));
    const r2 = await store.create('/b', bytes('two'));
    assert.equal(r1, 1);
    assert.equal(r2, 2);
    assert.equal(store.currentRevision(), 2);
    const a = await store.get('/a');
    assert.deepEqual({ ...a, value: text(a?.value) }, { key: '/a', value: 'one', createRevision: 1, modRevision: 1 });
  });

  test('create of an existing key rejects with KeyExists and consumes no revision', async (store) => {
    await store.create('/a', bytes('one'));
    const err = await rejectsWith(store.create('/a', bytes('again')), 'KeyExists');
    assert.equal(err.key, '/a');
    assert.equal(store.currentRevision(), 1);
    assert.equal(text((await store.get('/a'))?.value), 'one');
  });

  test('update is a compare-and-swap on modRevision', async (store) => {
    const r1 = await store.create('/a', bytes('one'));
    const r2 = await store.update('/a', bytes('two'), r1);
    assert.equal(r2, r1 + 1);
    const a = await store.get('/a');
    assert.equal(text(a?.value), 'two');
    assert.equal(a?.createRevision, r1);
    assert.equal(a?.modRevision, r2);
  });

  test('update with a stale revision rejects with Conflict carrying the current value', async (store) => {
    const r1 = await store.create('/a', bytes('one'));
    const r2 = await store.update('/a', bytes('two'), r1);
    const err = await rejectsWith(store.update('/a', bytes('three'), r1), 'Conflict');
    assert.equal(err.key, '/a');
    assert.equal(text(err.current?.value), 'two');
    assert.equal(err.current?.modRevision, r2);
    assert.equal(store.currentRevision(), r2);
    assert.equal(text((await store.get('/a'))?.value), 'two');
  });

  test('update of a missing key rejects with KeyNotFound', async (store) => {
    await rejectsWith(store.update('/missing', bytes('x'), 1), 'KeyNotFound');
    assert.equal(store.currentRevision(), 0);
  });

  test('delete without an expected revision removes the key', async (store) => {
    await store.create('/a', bytes('one'));
    const r = await store.delete('/a');
    assert.equal(r, 2);
    assert.equal(await store.get('/a'), undefined);
    await rejectsWith(store.delete('/a'), 'KeyNotFound');
    assert.equal(store.currentRevision(), 2);
  });

  test('delete with an expected revision is a compare-and-swap', async (store) => {
    const r1 = await store.create('/a', bytes('one'));
    const r2 = await store.update('/a', bytes('two'), r1);
    const err = await rejectsWith(store.delete('/a', r1), 'Conflict');
    assert.equal(err.current?.modRevision, r2);
    assert.equal(text((await store.get('/a'))?.value), 'two');
    const r3 = await store.delete('/a', r2);
    assert.equal(r3, r2 + 1);
    assert.equal(await store.get('/a'), undefined);
  });

  test('a key created again after a delete starts a new incarnation', async (store) => {
    await store.create('/a', bytes('one'));
    await store.delete('/a');
    const r3 = await store.create('/a', bytes('again'));
    const a = await store.get('/a');
    assert.equal(a?.createRevision, r3);
    assert.equal(a?.modRevision, r3);
    assert.equal(text(a?.value), 'again');
  });

  test('revisions increase by one per successful write and never otherwise', async (store) => {
    const seen: number[] = [];
    seen.push(await store.create('/a', bytes('1')));
    await rejectsWith(store.create('/a', bytes('1')), 'KeyExists');
    seen.push(await store.create('/b', bytes('2')));
    seen.push(await store.update('/a', bytes('3'), seen[0]));
    await rejectsWith(store.update('/a', bytes('4'), seen[0]), 'Conflict');
    seen.push(await store.delete('/b'));
    seen.push(await store.create('/b', bytes('5')));
    assert.deepEqual(seen, [1, 2, 3, 4, 5]);
    assert.equal(store.currentRevision(), 5);
  });

  test('values are bytes, stored exactly', async (store) => {
    const value = new Uint8Array(4096);
    for (let i = 0; i < value.length; i++) value[i] = (i * 7) & 0xff;
    await store.create('/bin', value);
    assert.deepEqual(Buffer.from((await store.get('/bin'))?.value ?? []), Buffer.from(value));
    await store.create('/empty', new Uint8Array(0));
    assert.equal((await store.get('/empty'))?.value.length, 0);
  });
}

function concurrencyContract(test: StoreTest): void {
  test('100 parallel creates all succeed with distinct, consecutive revisions', async (store) => {
    await store.create('/seed', bytes('x'));
    const revs = await Promise.all(Array.from({ length: 100 }, (_, i) => store.create(`/c/${i}`, bytes(`v${i}`))));
    assert.deepEqual(
      [...revs].sort((a, b) => a - b),
      Array.from({ length: 100 }, (_, i) => i + 2),
    );
    assert.equal(store.currentRevision(), 101);
    const all = await store.range('/c/');
    assert.equal(all.items.length, 100);
    for (const kv of all.items) assert.equal(text(kv.value), `v${kv.key.slice(3)}`);
  });

  test('parallel updates from the same revision: exactly one wins, the rest Conflict', async (store) => {
    const r = await store.create('/a', bytes('0'));
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => store.update('/a', bytes(`${i + 1}`), r)));
    const won = results.filter((x) => x.status === 'fulfilled');
    assert.equal(won.length, 1);
    for (const x of results) if (x.status === 'rejected') assert.equal((x.reason as { code?: string }).code, 'Conflict');
    assert.equal(store.currentRevision(), r + 1);
  });

  test('parallel creates of one key: exactly one wins, the rest KeyExists', async (store) => {
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => store.create('/same', bytes(`${i}`))));
    assert.equal(results.filter((x) => x.status === 'fulfilled').length, 1);
    assert.equal(store.currentRevision(), 1);
  });

  test('writes issued before close are committed', async (store) => {
    const pending = Array.from({ length: 10 }, (_, i) => store.create(`/p/${i}`, bytes(`${i}`)));
    await store.close();
    const revs = await Promise.all(pending);
    assert.equal(new Set(revs).size, 10);
    assert.equal(store.currentRevision(), 10);
  });

  test('after close every call rejects with Closed and watches end with Closed', async (store) => {
    const r = await store.create('/a', bytes('one'));
    const live = record(store, '/', r);
    await store.close();
    assert.equal((await live.waitForError()).code, 'Closed');
    await rejectsWith(store.get('/a'), 'Closed');
    await rejectsWith(store.range('/'), 'Closed');
    await rejectsWith(store.create('/b', bytes('x')), 'Closed');
    await rejectsWith(store.update('/a', bytes('x'), r), 'Closed');
    await rejectsWith(store.delete('/a'), 'Closed');
    await rejectsWith(store.compact(r), 'Closed');
    const late = record(store, '/', 0);
    assert.equal((await late.waitForError()).code, 'Closed');
    await store.close(); // idempotent
  });
}
