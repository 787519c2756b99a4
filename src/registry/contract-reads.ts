/** Registry contract: lists (selectors, namespaces, pages), watches and resourceVersion semantics. */
import assert from 'node:assert/strict';
import { metaOfObj, rejectsWithStatus, removeCompletely, rvOf, sample, type SubjectTest } from './contract-helpers.js';

const names = (items: readonly Record<string, unknown>[]): string[] => items.map((o) => metaOfObj(o).name);

export function readsContract(test: SubjectTest): void {
  test('every write gets its own, higher resourceVersion; a list is at the latest one', async (s, fx) => {
    const a = await s.create(s.ns(), sample(fx, 'a'));
    const b = await s.create(s.ns(), sample(fx, 'b'));
    const a2 = await s.patch(s.ns(), 'a', { metadata: { labels: { v: '2' } } });
    const rvs = [a, b, a2].map((o) => Number(rvOf(o)));
    assert.ok(rvs[0] < rvs[1] && rvs[1] < rvs[2], String(rvs));
    const list = await s.list(s.ns());
    assert.equal(list.metadata.resourceVersion, rvOf(a2));
    assert.deepEqual(
      list.items.map((o) => [metaOfObj(o).name, rvOf(o)]),
      [
        ['a', rvOf(a2)],
        ['b', rvOf(b)],
      ],
    );
  });

  test('list is in name order, filtered by label and field selectors, per namespace or across all', async (s, fx) => {
    for (const [name, tier] of [
      ['c', 'web'],
      ['a', 'db'],
      ['b', 'web'],
    ]) {
      await s.create(s.ns(), sample(fx, name, { tier }));
    }
    if (s.namespaced) await s.create('ns2', sample(fx, 'z', { tier: 'web' }));
    assert.deepEqual(names((await s.list(s.ns())).items), ['a', 'b', 'c']);
    assert.deepEqual(names((await s.list(s.ns(), { labelSelector: 'tier=web' })).items), ['b', 'c']);
    assert.deepEqual(names((await s.list(s.ns(), { labelSelector: 'tier notin (web)' })).items), ['a']);
    assert.deepEqual(names((await s.list(s.ns(), { fieldSelector: 'metadata.name=b' })).items), ['b']);
    if (s.namespaced) {
      assert.deepEqual(names((await s.list('')).items), ['a', 'b', 'c', 'z']);
      assert.deepEqual(names((await s.list('ns2')).items), ['z']);
    }
    await rejectsWithStatus(s.list(s.ns(), { labelSelector: 'tier in web' }), 400, 'BadRequest');
  });

  test('a paginated list reads every page at the first page revision', async (s, fx) => {
    for (const name of ['a', 'b', 'c']) await s.create(s.ns(), sample(fx, name));
    const first = await s.list(s.ns(), { limit: 2 });
    assert.deepEqual(names(first.items), ['a', 'b']);
    assert.ok(first.metadata.continue);
    assert.equal(first.metadata.remainingItemCount, 1);
    // A later write is not seen by the rest of this list.
    await s.patch(s.ns(), 'c', { metadata: { labels: { later: 'yes' } } });
    const rest = await s.list(s.ns(), { limit: 2, continue: first.metadata.continue });
    assert.deepEqual(names(rest.items), ['c']);
    assert.equal(rest.metadata.continue, undefined);
    assert.equal(metaOfObj(rest.items[0]).labels?.later, undefined);
    assert.equal(rest.metadata.resourceVersion, first.metadata.resourceVersion);
  });

  test('a watch without a resourceVersion starts with the current objects, then sees every change in order', async (s, fx) => {
    await s.create(s.ns(), sample(fx, 'a'));
    const watch = await s.watch(s.ns());
    const b = await s.create(s.ns(), sample(fx, 'b'));
    const a2 = await s.patch(s.ns(), 'a', { metadata: { labels: { v: '2' } } });
    await removeCompletely(s, fx, s.ns(), 'b');
    const events = await watch.next(fx.finalize ? 5 : 4);
    watch.stop();
    const seen = events.map((e) => [e.type, metaOfObj(e.object).name]);
    assert.deepEqual(seen.slice(0, 3), [
      ['ADDED', 'a'],
      ['ADDED', 'b'],
      ['MODIFIED', 'a'],
    ]);
    assert.deepEqual(seen[seen.length - 1], ['DELETED', 'b']);
    assert.equal(rvOf(events[1].object), rvOf(b));
    assert.equal(rvOf(events[2].object), rvOf(a2));
    const rvs = events.slice(1).map((e) => Number(rvOf(e.object)));
    for (let i = 1; i < rvs.length; i++) assert.ok(rvs[i] > rvs[i - 1], String(rvs));
  });

  test('a watch from a resourceVersion replays exactly the changes after it', async (s, fx) => {
    const a = await s.create(s.ns(), sample(fx, 'a'));
    await s.create(s.ns(), sample(fx, 'b'));
    await s.patch(s.ns(), 'a', { metadata: { labels: { v: '2' } } });
    const watch = await s.watch(s.ns(), { resourceVersion: rvOf(a) });
    const events = await watch.next(2);
    watch.stop();
    assert.deepEqual(
      events.map((e) => [e.type, metaOfObj(e.object).name]),
      [
        ['ADDED', 'b'],
        ['MODIFIED', 'a'],
      ],
    );
  });

  test('a selected watch sees an object leave the selection as DELETED and enter it as ADDED', async (s, fx) => {
    await s.create(s.ns(), sample(fx, 'a', { sel: 'yes' }));
    const watch = await s.watch(s.ns(), { labelSelector: 'sel=yes', resourceVersion: String(s.revision()) });
    await s.create(s.ns(), sample(fx, 'other', { sel: 'no' }));
    await s.patch(s.ns(), 'a', { metadata: { labels: { sel: 'no' } } });
    await s.patch(s.ns(), 'a', { metadata: { labels: { sel: 'yes' } } });
    const events = await watch.next(2);
    watch.stop();
    assert.deepEqual(
      events.map((e) => [e.type, metaOfObj(e.object).name, metaOfObj(e.object).labels.sel]),
      [
        ['DELETED', 'a', 'yes'],
        ['ADDED', 'a', 'yes'],
      ],
    );
  });

  test('a namespaced watch sees only its namespace', async (s, fx) => {
    if (!s.namespaced) return;
    const watch = await s.watch('ns1', { resourceVersion: String(s.revision()) });
    await s.create('ns2', sample(fx, 'elsewhere'));
    await s.create('ns1', sample(fx, 'here'));
    const events = await watch.next(1);
    watch.stop();
    assert.deepEqual(
      events.map((e) => metaOfObj(e.object).name),
      ['here'],
    );
  });
}
