/** Registry contract: the status and finalize subresources, each writing only the fields it owns. */
import assert from 'node:assert/strict';
import { metaOfObj, rejectsWithStatus, rvOf, sample, type SubjectTest } from './contract-helpers.js';

export function subresourcesContract(test: SubjectTest): void {
  test('status: dropped on create, kept by main-resource writes, written only through the subresource', async (s, fx) => {
    if (!s.info.def.subresources?.status || !fx.status) return;
    const withStatus = { ...sample(fx, 'a'), status: fx.status };
    const created = await s.create(s.ns(), withStatus);
    if (!s.info.def.behaviour?.keepStatusOnCreate) assert.notDeepEqual(created.status, fx.status);
    const before = created.status;
    // A main-resource update carrying a status keeps the stored one.
    const main = await s.update(s.ns(), 'a', { ...structuredClone(created), status: fx.status, metadata: { ...metaOfObj(created), labels: { main: 'yes' } } });
    assert.deepEqual(main.status, before);
    assert.equal(metaOfObj(main).labels.main, 'yes');
    // A status update writes the status and nothing else.
    const body = { ...structuredClone(main), status: fx.status };
    metaOfObj(body).labels = { fromStatus: 'yes' };
    const updated = await s.update(s.ns(), 'a', body, { subresource: 'status' });
    assert.deepEqual(updated.status, fx.status);
    assert.equal(metaOfObj(updated).labels.main, 'yes');
    assert.equal(metaOfObj(updated).labels.fromStatus, undefined);
    assert.deepEqual(await s.get(s.ns(), 'a'), updated);
    if (s.info.def.behaviour?.generation) assert.equal(metaOfObj(updated).generation, metaOfObj(created).generation);
    // The status subresource checks resourceVersion like any update.
    await rejectsWithStatus(s.update(s.ns(), 'a', { ...structuredClone(main), status: fx.status }, { subresource: 'status' }), 409, 'Conflict');
    assert.notEqual(rvOf(updated), rvOf(main));
  });

  test('status: a dry-run status update stores nothing; a missing object is 404', async (s, fx) => {
    if (!s.info.def.subresources?.status || !fx.status) return;
    const created = await s.create(s.ns(), sample(fx, 'a'));
    await s.update(s.ns(), 'a', { ...structuredClone(created), status: fx.status }, { subresource: 'status', dryRun: true });
    assert.deepEqual(await s.get(s.ns(), 'a'), created);
    await rejectsWithStatus(s.update(s.ns(), 'missing', { ...sample(fx, 'missing'), status: fx.status }, { subresource: 'status' }), 404, 'NotFound');
  });

  test('finalize: writes only spec.finalizers; a main-resource write cannot change them', async (s, fx) => {
    if (!s.info.def.subresources?.finalize || !fx.finalize) return;
    const created = await s.create(s.ns(), sample(fx, 'a'));
    const own = (created.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
    assert.ok(own.length > 0, 'a kind with finalize starts with finalizers of its own');
    const main = await s.update(s.ns(), 'a', { ...structuredClone(created), spec: { finalizers: [] } });
    assert.deepEqual((main.spec as { finalizers?: string[] }).finalizers, own);
    const body = fx.finalize(main);
    metaOfObj(body).labels = { fromFinalize: 'yes' };
    const finalized = await s.update(s.ns(), 'a', body, { subresource: 'finalize' });
    // An emptied list is stored absent (Go's omitempty).
    assert.deepEqual((finalized.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [], (body.spec as { finalizers?: string[] }).finalizers ?? []);
    assert.equal(metaOfObj(finalized).labels?.fromFinalize, undefined);
    // With no finalizers left, a delete removes the object at once.
    const res = await s.delete(s.ns(), 'a');
    assert.equal(res.removed, true);
  });

  test('finalize: a deleting object is removed once finalize clears its finalizers', async (s, fx) => {
    if (!s.info.def.subresources?.finalize || !fx.finalize) return;
    await s.create(s.ns(), sample(fx, 'a'));
    const marked = await s.delete(s.ns(), 'a');
    assert.equal(marked.removed, false);
    assert.ok(metaOfObj(marked.obj).deletionTimestamp);
    const watch = await s.watch(s.ns(), { resourceVersion: String(s.revision()) });
    await s.update(s.ns(), 'a', fx.finalize(marked.obj), { subresource: 'finalize' });
    await rejectsWithStatus(s.get(s.ns(), 'a'), 404, 'NotFound');
    const events = await watch.next(1);
    watch.stop();
    assert.deepEqual(
      events.map((e) => e.type),
      ['DELETED'],
    );
  });
}
