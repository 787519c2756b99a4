/** Registry contract: two-phase delete, preconditions, dry-run delete and deletecollection. */
import assert from 'node:assert/strict';
import type { Subject } from './contract-adapter.js';
import { type Fixture, metaOfObj, qualified, rejectsWithStatus, removeCompletely, rvOf, sample, type SubjectTest } from './contract-helpers.js';

/** Deletes name, finishing with the kind's finalize step when the first delete only marks it. */
async function deleteOnce(s: Subject, fx: Fixture, name: string): Promise<void> {
  const res = await s.delete(s.ns(), name);
  if (res.removed) {
    assert.equal(res.status.status, 'Success');
    assert.deepEqual(res.status.details?.name, name);
    assert.equal(res.status.details?.kind, s.info.plural);
    return;
  }
  assert.ok(fx.finalize, `${s.info.plural}: a delete without finalizers only marked ${name}`);
  assert.ok(metaOfObj(res.obj).deletionTimestamp);
  await s.update(s.ns(), name, fx.finalize(res.obj), { subresource: 'finalize' });
}

export function deleteContract(test: SubjectTest): void {
  test('delete removes the object (after the kind finalizes it); a second delete is 404', async (s, fx) => {
    const created = await s.create(s.ns(), sample(fx, 'a'));
    await deleteOnce(s, fx, 'a');
    await rejectsWithStatus(s.get(s.ns(), 'a'), 404, 'NotFound');
    await rejectsWithStatus(s.delete(s.ns(), 'a'), 404, 'NotFound', `${qualified(s)} "a" not found`);
    // The name is free again: a new object is a new incarnation.
    const again = await s.create(s.ns(), sample(fx, 'a'));
    assert.notEqual(metaOfObj(again).uid, metaOfObj(created).uid);
  });

  test('delete preconditions: another uid or resourceVersion is 409 Conflict and deletes nothing', async (s, fx) => {
    const created = await s.create(s.ns(), sample(fx, 'a'));
    const uid = metaOfObj(created).uid;
    await rejectsWithStatus(
      s.delete(s.ns(), 'a', { preconditions: { uid: 'other' } }),
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualified(s)} "a": Precondition failed: UID in precondition: other, UID in object meta: ${uid}`,
    );
    await rejectsWithStatus(
      s.delete(s.ns(), 'a', { preconditions: { resourceVersion: '999999' } }),
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualified(s)} "a": Precondition failed: ResourceVersion in precondition: 999999, ResourceVersion in object meta: ${rvOf(created)}`,
    );
    assert.deepEqual(await s.get(s.ns(), 'a'), created);
    const res = await s.delete(s.ns(), 'a', { preconditions: { uid, resourceVersion: rvOf(created) } });
    if (res.removed) await rejectsWithStatus(s.get(s.ns(), 'a'), 404, 'NotFound');
    else assert.ok(metaOfObj(res.obj).deletionTimestamp);
  });

  test('dry-run delete answers as a delete would and changes nothing', async (s, fx) => {
    const created = await s.create(s.ns(), sample(fx, 'a'));
    const rev = s.revision();
    const res = await s.delete(s.ns(), 'a', { dryRun: true });
    if (!res.removed) assert.ok(metaOfObj(res.obj).deletionTimestamp);
    assert.equal(s.revision(), rev);
    assert.deepEqual(await s.get(s.ns(), 'a'), created);
    await rejectsWithStatus(s.delete(s.ns(), 'missing', { dryRun: true }), 404, 'NotFound');
  });

  test('an object with finalizers is marked deleting, kept until the last one goes, then removed', async (s, fx) => {
    const obj = sample(fx, 'a');
    metaOfObj(obj).finalizers = ['example.com/one', 'example.com/two'];
    await s.create(s.ns(), obj);
    const watch = await s.watch(s.ns(), { resourceVersion: String(s.revision()) });
    const marked = await s.delete(s.ns(), 'a');
    assert.equal(marked.removed, false);
    const meta = metaOfObj(marked.obj);
    assert.equal(meta.deletionTimestamp, '2024-05-06T07:08:09Z');
    assert.equal(meta.deletionGracePeriodSeconds, 0);
    assert.deepEqual(await s.get(s.ns(), 'a'), marked.obj);
    // Deleting again changes nothing; adding a finalizer while deleting is refused.
    const rev = s.revision();
    const again = await s.delete(s.ns(), 'a');
    assert.equal(again.removed, false);
    assert.equal(s.revision(), rev);
    await rejectsWithStatus(
      s.patch(s.ns(), 'a', { metadata: { finalizers: ['example.com/one', 'example.com/two', 'example.com/three'] } }),
      422,
      'Invalid',
      /no new finalizers can be added if the object is being deleted/,
    );
    // The deletionTimestamp is the server's: an update can never move it (upstream's BeforeUpdate).
    const moved = await s.patch(s.ns(), 'a', { metadata: { deletionTimestamp: '2030-01-01T00:00:00Z' } });
    assert.equal(metaOfObj(moved).deletionTimestamp, '2024-05-06T07:08:09Z');
    await s.patch(s.ns(), 'a', { metadata: { finalizers: ['example.com/two'] } });
    assert.deepEqual(metaOfObj(await s.get(s.ns(), 'a')).finalizers, ['example.com/two']);
    const last = await s.patch(s.ns(), 'a', { metadata: { finalizers: null } });
    if (fx.finalize) await s.update(s.ns(), 'a', fx.finalize(last), { subresource: 'finalize' });
    await rejectsWithStatus(s.get(s.ns(), 'a'), 404, 'NotFound');
    const expected = ['MODIFIED', 'MODIFIED', ...(fx.finalize ? ['MODIFIED'] : []), 'DELETED'];
    const events = await watch.next(expected.length);
    watch.stop();
    assert.deepEqual(
      events.map((e) => e.type),
      expected,
    );
  });

  test('deletecollection deletes what the selector selects in the namespace, and nothing on dry run', async (s, fx) => {
    await s.create(s.ns(), sample(fx, 'a', { group: 'x' }));
    await s.create(s.ns(), sample(fx, 'b', { group: 'x' }));
    await s.create(s.ns(), sample(fx, 'c', { group: 'y' }));
    if (s.namespaced) await s.create('ns2', sample(fx, 'd', { group: 'x' }));
    const dry = await s.deleteCollection(s.ns(), { labelSelector: 'group=x', dryRun: true });
    assert.deepEqual(dry.map((o) => metaOfObj(o).name).sort(), ['a', 'b']);
    assert.equal((await s.list(s.ns())).items.length, 3);
    const deleted = await s.deleteCollection(s.ns(), { labelSelector: 'group=x' });
    assert.deepEqual(deleted.map((o) => metaOfObj(o).name).sort(), ['a', 'b']);
    for (const name of ['a', 'b']) {
      const left = await s.get(s.ns(), name).catch(() => undefined);
      // Kinds with their own finalizers are only marked by a delete.
      if (left !== undefined) assert.ok(fx.finalize && metaOfObj(left).deletionTimestamp);
    }
    await s.get(s.ns(), 'c');
    if (s.namespaced) await s.get('ns2', 'd');
    for (const name of ['a', 'b']) if (fx.finalize) await removeCompletely(s, fx, s.ns(), name);
  });
}
