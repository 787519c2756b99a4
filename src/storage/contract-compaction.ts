/**
 * Store contract: compaction — reads below the compacted revision fail, reads at or above it
 * stay exact (checked against a model at every revision), and watches from it replay fully.
 */

import assert from 'node:assert/strict';
import { bytes, record, rejectsWith, type StoreTest, text } from './contract-helpers.js';
import type { Store } from './interface.js';

/** Registers the compaction tests; every store must pass them unchanged. */
export function compactionContract(test: StoreTest): void {
  test('after compact(C), reads below C are Compacted and reads at C and later are intact', async (store) => {
    const r1 = await store.create('/k/a', bytes('a1'));
    const r2 = await store.update('/k/a', bytes('a2'), r1);
    await store.create('/k/b', bytes('b1'));
    const r4 = await store.update('/k/a', bytes('a3'), r2);
    await store.delete('/k/b');
    await store.compact(r4);
    assert.equal(store.compactedRevision(), r4);
    await rejectsWith(store.get('/k/a', { revision: r4 - 1 }), 'Compacted');
    await rejectsWith(store.range('/k/', { revision: 1 }), 'Compacted');
    assert.equal(text((await store.get('/k/a', { revision: r4 }))?.value), 'a3');
    assert.deepEqual(
      (await store.range('/k/', { revision: r4 })).items.map((kv) => `${kv.key}=${text(kv.value)}`),
      ['/k/a=a3', '/k/b=b1'],
    );
    assert.deepEqual(
      (await store.range('/k/')).items.map((kv) => kv.key),
      ['/k/a'],
    );
  });

  test('compact past the current revision is FutureRevision; to an older one, a no-op', async (store) => {
    await store.create('/a', bytes('x'));
    await store.create('/b', bytes('x'));
    await rejectsWith(store.compact(3), 'FutureRevision');
    await store.compact(2);
    await store.compact(1);
    assert.equal(store.compactedRevision(), 2);
  });

  test('a key untouched since long before compaction stays readable at every kept revision', async (store) => {
    await store.create('/old', bytes('old'));
    for (let i = 0; i < 20; i++) await store.create(`/n/${i}`, bytes('x'));
    await store.compact(15);
    await store.update('/old', bytes('new'), 1);
    await store.compact(18);
    // The value written at revision 1 is still the value at 18..21.
    for (let r = 18; r <= 21; r++) assert.equal(text((await store.get('/old', { revision: r }))?.value), 'old', `at ${r}`);
    assert.equal(text((await store.get('/old'))?.value), 'new');
  });

  test('compacting past a write and its overwrite keeps the overwritten value current', async (store) => {
    const r1 = await store.create('/k/a', bytes('a1'));
    const r2 = await store.update('/k/a', bytes('a2'), r1);
    const r3 = await store.create('/k/b', bytes('b1'));
    await store.compact(r3);
    const a = await store.get('/k/a');
    assert.deepEqual(a && [text(a.value), a.createRevision, a.modRevision], ['a2', r1, r2]);
    // A later compaction also removes rows its window's rows supersede; /k/a's newest stays.
    await store.compact(await store.update('/k/b', bytes('b2'), r3));
    assert.equal(text((await store.get('/k/a'))?.value), 'a2');
    assert.deepEqual(
      (await store.range('/k/')).items.map((kv) => `${kv.key}=${text(kv.value)}@${kv.modRevision}`),
      [`/k/a=a2@${r2}`, `/k/b=b2@${r3 + 1}`],
    );
  });

  test('random writes with repeated compactions: every kept revision reads exactly as the model', async (store) => {
    const model = new ModelHistory();
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const keys = Array.from({ length: 8 }, (_, i) => `/m/${i}`);
    for (let step = 0; step < 400; step++) {
      const key = keys[random(keys.length)];
      const cur = model.current().get(key);
      const value = `${key}#${step}`;
      if (!cur) {
        model.apply(await store.create(key, bytes(value)), key, value, true);
      } else if (random(4) === 0) {
        model.apply(await store.delete(key, cur.mod), key, undefined, false);
      } else {
        model.apply(await store.update(key, bytes(value), cur.mod), key, value, false);
      }
      if (step % 97 === 96) {
        await store.compact(store.currentRevision() - random(20));
        await verifyAgainst(store, model, keys);
      }
    }
    const from = store.currentRevision() - 10;
    await store.compact(from);
    await verifyAgainst(store, model, keys);
    // Watching from the compacted revision replays every later event, with the right prevKv.
    const w = record(store, '/m/', from);
    await w.waitFor(10);
    assert.deepEqual(
      w.events.map((e) => e.revision),
      Array.from({ length: 10 }, (_, i) => from + 1 + i),
    );
    for (const e of w.events) {
      const before = model.stateAt(e.revision - 1).get(e.kv.key);
      assert.equal(e.prevKv && `${text(e.prevKv.value)}@${e.prevKv.modRevision}`, before && `${before.value}@${before.mod}`);
    }
    await store.compact(store.currentRevision());
    await verifyAgainst(store, model, keys);
    w.cancel();
  });
}

/** Model of a store's history: the full state at every revision. */
class ModelHistory {
  private readonly states: Map<string, { value: string; mod: number; create: number }>[] = [new Map()];

  current() {
    return this.states[this.states.length - 1];
  }

  stateAt(revision: number) {
    return this.states[revision];
  }

  get revision(): number {
    return this.states.length - 1;
  }

  apply(revision: number, key: string, value: string | undefined, created: boolean): void {
    assert.equal(revision, this.states.length, 'revisions are consecutive');
    const next = new Map(this.current());
    const prev = next.get(key);
    if (value === undefined) next.delete(key);
    else next.set(key, { value, mod: revision, create: created || !prev ? revision : prev.create });
    this.states.push(next);
  }
}

async function verifyAgainst(store: Store, model: ModelHistory, keys: string[]): Promise<void> {
  const compacted = store.compactedRevision();
  if (compacted > 1) await rejectsWith(store.get(keys[0], { revision: compacted - 1 }), 'Compacted');
  for (let r = Math.max(compacted, 1); r <= model.revision; r++) {
    const want = model.stateAt(r);
    const got = await store.range('/m/', { revision: r });
    const wantList = [...want.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v.value}@${v.mod}/c${v.create}`);
    assert.deepEqual(
      got.items.map((kv) => `${kv.key}=${text(kv.value)}@${kv.modRevision}/c${kv.createRevision}`),
      wantList,
      `range at ${r}`,
    );
    const page = await store.range('/m/', { revision: r, limit: 2 });
    assert.deepEqual([page.count, page.more, page.items.length], [wantList.length, wantList.length > 2, Math.min(2, wantList.length)], `count at ${r}`);
    for (const key of keys) {
      const kv = await store.get(key, { revision: r });
      const v = want.get(key);
      assert.equal(kv && `${text(kv.value)}@${kv.modRevision}`, v && `${v.value}@${v.mod}`, `get ${key} at ${r}`);
    }
  }
}
