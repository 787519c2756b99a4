/**
 * The store contract for etcd's two size limits (limits.ts): the request size and the backend
 * quota. Sizes are compared loosely, since each backend counts its own bytes (SQLite counts
 * pages in use, the memory store keys and values), but every backend must refuse, keep
 * serving reads and deletes while full, and recover once deletes and compaction free space.
 */

import assert from 'node:assert/strict';
import { type MakeStore, rejectsWith, storeTest, text } from './contract-helpers.js';
import { DEFAULT_MAX_REQUEST_BYTES, NO_SPACE_MESSAGE, REQUEST_TOO_LARGE_MESSAGE } from './limits.js';
import type { Store } from './interface.js';

const QUOTA = 256 * 1024;
const VALUE = 16 * 1024;

/** A value of n bytes, all `fill`. */
function value(n: number, fill = 0x61): Uint8Array {
  return new Uint8Array(n).fill(fill);
}

/** Creates VALUE-sized keys under prefix until the quota refuses one; resolves to how many fit. */
async function fill(store: Store, prefix: string): Promise<number> {
  for (let i = 0; i < 4 * (QUOTA / VALUE); i++) {
    try {
      await store.create(`${prefix}${i}`, value(VALUE));
    } catch (err) {
      assert.equal((err as { code?: string }).code, 'NoSpace', String(err));
      return i;
    }
  }
  assert.fail(`the quota of ${QUOTA} bytes never refused a write (dbSize ${store.dbSize()})`);
}

/** Registers the limits tests; makeStore builds stores with the limits each test needs. */
export function limitsContract(makeStore: MakeStore): void {
  const small = storeTest(makeStore, { maxRequestBytes: 1024 });
  const defaults = storeTest(makeStore);
  const quota = storeTest(makeStore, { quotaBackendBytes: QUOTA });

  small('a put of more than maxRequestBytes (key plus value) is refused with etcd text and changes nothing', async (store) => {
    const r1 = await store.create('/a', value(1024 - 2));
    const tooLarge = await rejectsWith(store.create('/b', value(1024 - 1)), 'RequestTooLarge');
    assert.equal(tooLarge.message, REQUEST_TOO_LARGE_MESSAGE);
    await rejectsWith(store.update('/a', value(4096), r1), 'RequestTooLarge');
    // The size check comes first, as in etcd: even a put that would also conflict is too large.
    await rejectsWith(store.create('/a', value(2048)), 'RequestTooLarge');
    assert.equal(store.currentRevision(), r1);
    assert.equal(await store.get('/b'), undefined);
    assert.equal((await store.get('/a'))?.value.length, 1022);
    assert.equal(await store.delete('/a'), r1 + 1);
  });

  defaults('by default a put is refused past 1.5 MiB, as etcd --max-request-bytes', async (store) => {
    const key = '/big';
    const fits = DEFAULT_MAX_REQUEST_BYTES - key.length;
    const r1 = await store.create(key, value(fits));
    await rejectsWith(store.update(key, value(fits + 1), r1), 'RequestTooLarge');
    assert.equal((await store.get(key))?.value.length, fits);
  });

  quota('past the quota puts are refused with NoSpace; reads, deletes and compaction still work; then puts work again', async (store) => {
    const before = store.dbSize();
    const n = await fill(store, '/q/');
    // Each backend counts its own overhead, but the quota is neither ignored nor far undershot.
    assert.ok(n >= 4 && n <= QUOTA / VALUE, `${n} values of ${VALUE} bytes fit a quota of ${QUOTA}`);
    assert.ok(store.dbSize() > before + (n - 1) * VALUE * 0.9, `dbSize ${store.dbSize()} counts ${n} values`);
    const rev = store.currentRevision();
    const full = await rejectsWith(store.create('/q/more', value(VALUE)), 'NoSpace');
    assert.equal(full.message, NO_SPACE_MESSAGE);
    await rejectsWith(store.update('/q/0', value(VALUE, 0x62), 1), 'NoSpace');
    assert.equal(store.currentRevision(), rev, 'a refused put takes no revision');

    assert.equal(text((await store.get('/q/0'))?.value.subarray(0, 1)), 'a');
    assert.equal((await store.range('/q/')).count, n);
    for (let i = 0; i < n; i++) await store.delete(`/q/${i}`);
    assert.equal((await store.range('/q/')).count, 0);
    await store.compact(store.currentRevision());
    assert.ok(store.dbSize() < before + QUOTA / 2, `dbSize ${store.dbSize()} after deleting and compacting everything`);

    const again = await fill(store, '/r/');
    assert.ok(again >= n - 1, `after recovery ${again} values fit, before ${n}`);
  });

  quota('parallel puts past the quota: those that fit get consecutive revisions, the others NoSpace', async (store) => {
    const results = await Promise.allSettled(Array.from({ length: 2 * (QUOTA / VALUE) }, (_, i) => store.create(`/p/${i}`, value(VALUE))));
    const revs = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code?: string }).code] : []));
    assert.ok(revs.length >= 4, `${revs.length} fit`);
    assert.ok(refused.length >= QUOTA / VALUE, `${refused.length} refused`);
    assert.deepEqual(new Set(refused), new Set(['NoSpace']));
    assert.deepEqual(
      [...revs].sort((a, b) => a - b),
      Array.from({ length: revs.length }, (_, i) => i + 1),
    );
    assert.equal(store.currentRevision(), revs.length);
    assert.equal((await store.range('/p/')).count, revs.length);
  });
}
