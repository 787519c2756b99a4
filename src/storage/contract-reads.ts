/**
 * Store contract: get and range, at the current and at older revisions, with prefix,
 * startKey, limit, more and count.
 */

import assert from 'node:assert/strict';
import { bytes, rejectsWith, type StoreTest, text } from './contract-helpers.js';
import type { RangeResult, Store } from './interface.js';

/** Registers the read tests; every store must pass them unchanged. */
export function readsContract(test: StoreTest): void {
  /** Revisions: 1 create a, 2 update a, 3 create b, 4 delete a, 5 create a again, 6 update b. */
  async function history(store: Store): Promise<void> {
    await store.create('/k/a', bytes('a1'));
    await store.update('/k/a', bytes('a2'), 1);
    await store.create('/k/b', bytes('b1'));
    await store.delete('/k/a');
    await store.create('/k/a', bytes('a3'));
    await store.update('/k/b', bytes('b2'), 3);
  }

  test('get at an old revision returns the value as it was then', async (store) => {
    await history(store);
    const at = async (key: string, revision: number) => {
      const kv = await store.get(key, { revision });
      return kv && `${text(kv.value)}@${kv.modRevision}/c${kv.createRevision}`;
    };
    assert.deepEqual(
      [await at('/k/a', 1), await at('/k/a', 2), await at('/k/a', 3), await at('/k/a', 4), await at('/k/a', 5), await at('/k/a', 6)],
      ['a1@1/c1', 'a2@2/c1', 'a2@2/c1', undefined, 'a3@5/c5', 'a3@5/c5'],
    );
    assert.deepEqual([await at('/k/b', 2), await at('/k/b', 3), await at('/k/b', 5), await at('/k/b', 6)], [undefined, 'b1@3/c3', 'b1@3/c3', 'b2@6/c3']);
    assert.equal(await at('/k/none', 3), undefined);
    // Revision 0 means "current".
    assert.equal(text((await store.get('/k/a', { revision: 0 }))?.value), 'a3');
  });

  test('range at an old revision returns the keys as they were then', async (store) => {
    await history(store);
    const at = async (revision: number) => {
      const r = await store.range('/k/', { revision });
      assert.equal(r.revision, revision);
      return r.items.map((kv) => `${kv.key}=${text(kv.value)}@${kv.modRevision}`);
    };
    assert.deepEqual(await at(1), ['/k/a=a1@1']);
    assert.deepEqual(await at(3), ['/k/a=a2@2', '/k/b=b1@3']);
    assert.deepEqual(await at(4), ['/k/b=b1@3']);
    assert.deepEqual(await at(6), ['/k/a=a3@5', '/k/b=b2@6']);
  });

  test('reads after the current revision reject with FutureRevision', async (store) => {
    await history(store);
    await rejectsWith(store.get('/k/a', { revision: 7 }), 'FutureRevision');
    await rejectsWith(store.range('/k/', { revision: 100 }), 'FutureRevision');
  });

  test('range returns only keys under the prefix, in key order, at the current revision', async (store) => {
    for (const key of ['/b/1', '/a/2', '/ab', '/a/10', '/a/1', '/a', '/a/1/x']) await store.create(key, bytes(key));
    const r = await store.range('/a/');
    assert.deepEqual(
      r.items.map((kv) => kv.key),
      ['/a/1', '/a/1/x', '/a/10', '/a/2'],
    );
    assert.equal(r.revision, store.currentRevision());
    assert.equal(r.more, false);
    assert.equal(r.count, 4);
    for (const kv of r.items) assert.equal(text(kv.value), kv.key);
    assert.deepEqual(
      (await store.range('')).items.map((kv) => kv.key),
      ['/a', '/a/1', '/a/1/x', '/a/10', '/a/2', '/ab', '/b/1'],
    );
    assert.deepEqual((await store.range('/zz')).items, []);
  });

  test('range paginates with limit, startKey, more and count', async (store) => {
    for (let i = 0; i < 10; i++) await store.create(`/p/${i}`, bytes(`${i}`));
    await store.create('/q/0', bytes('other'));
    const pages: RangeResult[] = [];
    let startKey: string | undefined;
    for (;;) {
      const page = await store.range('/p/', { limit: 3, startKey });
      pages.push(page);
      if (!page.more) break;
      startKey = `${page.items[page.items.length - 1].key}\0`;
    }
    assert.deepEqual(
      pages.map((p) => [p.items.map((kv) => kv.key.slice(3)).join(','), p.more, p.count]),
      [
        ['0,1,2', true, 10],
        ['3,4,5', true, 7],
        ['6,7,8', true, 4],
        ['9', false, 1],
      ],
    );
    const exact = await store.range('/p/', { limit: 10 });
    assert.equal(exact.more, false);
    assert.equal(exact.count, 10);
    const all = await store.range('/p/', { limit: 0 });
    assert.equal(all.items.length, 10);
    const fromMiddle = await store.range('/p/', { startKey: '/p/7' });
    assert.deepEqual(
      fromMiddle.items.map((kv) => kv.key),
      ['/p/7', '/p/8', '/p/9'],
    );
    assert.equal(fromMiddle.count, 3);
    // A startKey before the prefix changes nothing; one past it leaves nothing.
    assert.equal((await store.range('/p/', { startKey: '/a' })).items.length, 10);
    assert.deepEqual((await store.range('/p/', { startKey: '/q' })).items, []);
  });

  test('range at an old revision paginates too', async (store) => {
    for (let i = 0; i < 6; i++) await store.create(`/p/${i}`, bytes(`${i}`));
    const at = store.currentRevision();
    for (let i = 0; i < 6; i += 2) await store.delete(`/p/${i}`);
    await store.create('/p/9', bytes('9'));
    const first = await store.range('/p/', { revision: at, limit: 4 });
    assert.deepEqual([first.items.map((kv) => kv.key.slice(3)).join(','), first.more, first.count, first.revision], ['0,1,2,3', true, 6, at]);
    const second = await store.range('/p/', { revision: at, limit: 4, startKey: '/p/3\0' });
    assert.deepEqual([second.items.map((kv) => kv.key.slice(3)).join(','), second.more, second.count], ['4,5', false, 2]);
    const now = await store.range('/p/', { limit: 2 });
    assert.deepEqual([now.items.map((kv) => kv.key.slice(3)).join(','), now.more, now.count], ['1,3', true, 4]);
  });

  test('keys sort by code point, the same in every backend', async (store) => {
    const keys = ['/u/z', '/u/\u00e9', '/u/\uffff', '/u/\u{1f600}', '/u/A'];
    for (const key of keys) await store.create(key, bytes('x'));
    assert.deepEqual(
      (await store.range('/u/')).items.map((kv) => kv.key),
      ['/u/A', '/u/z', '/u/\u00e9', '/u/\uffff', '/u/\u{1f600}'],
    );
    assert.deepEqual(
      (await store.range('/u/\uffff')).items.map((kv) => kv.key),
      ['/u/\uffff'],
    );
  });
}
