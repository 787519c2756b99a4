/**
 * The behaviour every resource store must show, as a node:test suite a kind's test registers:
 * `registryContract('pods', storeOf(pods, () => new MemoryStore()), { valid: (name) => ... })`.
 * It drives the store only through contract-adapter.ts. This file covers create, get, update
 * and patch; contract-delete.ts, contract-reads.ts and contract-subresources.ts the rest.
 */
import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { deleteContract } from './contract-delete.js';
import type { MakeStore } from './contract-adapter.js';
import { type Fixture, metaOfObj, qualified, qualifiedKind, rejectsWithStatus, rvOf, sample, type SubjectTest, subjectTest } from './contract-helpers.js';
import { readsContract } from './contract-reads.js';
import { subresourcesContract } from './contract-subresources.js';

export type { Fixture } from './contract-helpers.js';
export { storeOf } from './contract-adapter.js';

/** Registers the registry contract for one resource kind; makeStore returns a fresh, empty store per test. */
export function registryContract(name: string, makeStore: MakeStore, fixture: Fixture): void {
  describe(`${name} registry contract`, () => {
    const test = subjectTest(makeStore, fixture);
    describe('create and get', () => createContract(test));
    describe('update and patch', () => updateContract(test));
    describe('delete', () => deleteContract(test));
    describe('list, watch and resourceVersion', () => readsContract(test));
    describe('subresources', () => subresourcesContract(test));
  });
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

function createContract(test: SubjectTest): void {
  test('create stores the object with server-set uid, creationTimestamp and resourceVersion; get returns it', async (s, fx) => {
    const before = s.revision();
    const created = await s.create(s.ns(), sample(fx, 'a'));
    const meta = metaOfObj(created);
    assert.equal(meta.name, 'a');
    assert.match(meta.uid, /^[0-9a-f-]{36}$/);
    assert.match(meta.creationTimestamp, RFC3339);
    assert.ok(Number(rvOf(created)) > before, `resourceVersion ${rvOf(created)} after revision ${before}`);
    if (s.namespaced) assert.equal(meta.namespace, 'ns1');
    else assert.equal(meta.namespace, undefined);
    assert.deepEqual(await s.get(s.ns(), 'a'), created);
  });

  test('what only the server sets is ignored on create', async (s, fx) => {
    const obj = sample(fx, 'a');
    Object.assign(metaOfObj(obj), {
      uid: 'client-uid',
      resourceVersion: '999',
      creationTimestamp: '2001-01-01T00:00:00Z',
      deletionTimestamp: '2001-01-01T00:00:00Z',
      generation: 7,
    });
    const created = await s.create(s.ns(), obj);
    const meta = metaOfObj(created);
    assert.notEqual(meta.uid, 'client-uid');
    assert.notEqual(rvOf(created), '999');
    assert.notEqual(meta.creationTimestamp, '2001-01-01T00:00:00Z');
    assert.equal(meta.deletionTimestamp, undefined);
    assert.ok(meta.generation === undefined || meta.generation === 1, String(meta.generation));
  });

  test('the request namespace is the object namespace; a different one in the body is 400 (cluster-scoped kinds drop it)', async (s, fx) => {
    const obj = sample(fx, 'a');
    metaOfObj(obj).namespace = 'other';
    if (s.namespaced) {
      await rejectsWithStatus(s.create('ns1', obj), 400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
      await rejectsWithStatus(s.get('other', 'a'), 404, 'NotFound');
      await rejectsWithStatus(s.get('ns1', 'a'), 404, 'NotFound');
    } else {
      assert.equal(metaOfObj(await s.create('', obj)).namespace, undefined);
    }
  });

  test('a taken name is 409 AlreadyExists with the resource in the message and details; the stored object is untouched', async (s, fx) => {
    const first = await s.create(s.ns(), sample(fx, 'a'));
    const rev = s.revision();
    const err = await rejectsWithStatus(s.create(s.ns(), sample(fx, 'a', { again: 'yes' })), 409, 'AlreadyExists', `${qualified(s)} "a" already exists`);
    assert.deepEqual(err.details, { name: 'a', ...(s.info.group === '' ? {} : { group: s.info.group }), kind: s.info.plural });
    assert.equal(s.revision(), rev);
    assert.deepEqual(await s.get(s.ns(), 'a'), first);
  });

  test('an invalid object is 422 Invalid naming the kind and every field; nothing is stored', async (s, fx) => {
    const obj = sample(fx, 'a', { 'bad key!': 'x' });
    const rev = s.revision();
    const err = await rejectsWithStatus(
      s.create(s.ns(), obj),
      422,
      'Invalid',
      new RegExp(`^${qualifiedKind(s).replaceAll('.', '\\.')} "a" is invalid: metadata\\.labels: Invalid value: "bad key!"`),
    );
    assert.ok(
      err.details?.causes?.some((c) => c.field === 'metadata.labels'),
      JSON.stringify(err.details),
    );
    assert.equal(err.details?.kind, s.info.kind);
    assert.equal(s.revision(), rev);
    await rejectsWithStatus(s.get(s.ns(), 'a'), 404, 'NotFound');
  });

  test('generateName: a name is generated from the prefix; neither name nor generateName is 422', async (s, fx) => {
    const obj = sample(fx, 'x');
    delete metaOfObj(obj).name;
    metaOfObj(obj).generateName = 'gen-';
    const created = await s.create(s.ns(), obj);
    assert.match(metaOfObj(created).name, /^gen-[a-z0-9]{5}$/);
    assert.equal(metaOfObj(created).generateName, 'gen-');
    assert.deepEqual(await s.get(s.ns(), metaOfObj(created).name), created);
    delete metaOfObj(obj).generateName;
    await rejectsWithStatus(s.create(s.ns(), obj), 422, 'Invalid', /metadata\.name: Required value: name or generateName is required/);
  });

  test('dry-run create answers the object without storing it or telling watchers; a taken name is still 409', async (s, fx) => {
    const watch = await s.watch(s.ns());
    const rev = s.revision();
    const dry = await s.create(s.ns(), sample(fx, 'a'), { dryRun: true });
    assert.equal(metaOfObj(dry).name, 'a');
    assert.equal(rvOf(dry), '');
    assert.equal(s.revision(), rev);
    await rejectsWithStatus(s.get(s.ns(), 'a'), 404, 'NotFound');
    await s.create(s.ns(), sample(fx, 'b'));
    await rejectsWithStatus(s.create(s.ns(), sample(fx, 'b'), { dryRun: true }), 409, 'AlreadyExists');
    const events = await watch.next(1);
    watch.stop();
    assert.deepEqual(
      events.map((e) => [e.type, metaOfObj(e.object).name]),
      [['ADDED', 'b']],
    );
  });

  test('admission refusing a create stores nothing; mutating admission changes what is stored', async (s, fx) => {
    const refuse = () => {
      throw new Error('refused');
    };
    await assert.rejects(s.create(s.ns(), sample(fx, 'a'), { admit: refuse }), /refused/);
    await rejectsWithStatus(s.get(s.ns(), 'a'), 404, 'NotFound');
    const created = await s.create(s.ns(), sample(fx, 'a'), {
      mutate: (obj) => {
        metaOfObj(obj).annotations = { ...metaOfObj(obj).annotations, mutated: 'yes' };
      },
    });
    assert.equal(metaOfObj(created).annotations.mutated, 'yes');
    assert.equal(metaOfObj(await s.get(s.ns(), 'a')).annotations.mutated, 'yes');
  });

  test('get of a missing object is 404 NotFound naming the resource', async (s) => {
    const err = await rejectsWithStatus(s.get(s.ns(), 'missing'), 404, 'NotFound', `${qualified(s)} "missing" not found`);
    assert.deepEqual(err.details, { name: 'missing', ...(s.info.group === '' ? {} : { group: s.info.group }), kind: s.info.plural });
  });
}

function updateContract(test: SubjectTest): void {
  test('update replaces the object at a new resourceVersion; uid and creationTimestamp stay', async (s, fx) => {
    const created = await s.create(s.ns(), sample(fx, 'a'));
    const body = structuredClone(created);
    metaOfObj(body).labels = { ...metaOfObj(body).labels, changed: 'yes' };
    Object.assign(metaOfObj(body), { creationTimestamp: '2001-01-01T00:00:00Z' });
    const updated = await s.update(s.ns(), 'a', body);
    assert.equal(metaOfObj(updated).labels.changed, 'yes');
    assert.equal(metaOfObj(updated).uid, metaOfObj(created).uid);
    assert.equal(metaOfObj(updated).creationTimestamp, metaOfObj(created).creationTimestamp);
    assert.notEqual(rvOf(updated), rvOf(created));
    assert.ok(Number(rvOf(updated)) > Number(rvOf(created)));
    assert.deepEqual(await s.get(s.ns(), 'a'), updated);
  });

  test('an update with a stale resourceVersion is 409 Conflict and changes nothing', async (s, fx) => {
    const created = await s.create(s.ns(), sample(fx, 'a'));
    const current = await s.update(s.ns(), 'a', sample(fx, 'a', { v: '2' }));
    const stale = structuredClone(created);
    metaOfObj(stale).labels = { v: '3' };
    await rejectsWithStatus(
      s.update(s.ns(), 'a', stale),
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualified(s)} "a": the object has been modified; please apply your changes to the latest version and try again`,
    );
    assert.deepEqual(await s.get(s.ns(), 'a'), current);
  });

  test('a uid in the body is a precondition: another uid is 409 Conflict', async (s, fx) => {
    await s.create(s.ns(), sample(fx, 'a'));
    const body = sample(fx, 'a', { v: '2' });
    metaOfObj(body).uid = '00000000-0000-0000-0000-000000000000';
    await rejectsWithStatus(
      s.update(s.ns(), 'a', body),
      409,
      'Conflict',
      /Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000000, UID in object meta: /,
    );
  });

  test('an update without changes writes nothing (same resourceVersion)', async (s, fx) => {
    const created = await s.create(s.ns(), sample(fx, 'a'));
    const rev = s.revision();
    const same = await s.update(s.ns(), 'a', structuredClone(created));
    assert.equal(rvOf(same), rvOf(created));
    assert.equal(s.revision(), rev);
  });

  test('update of a missing object is 404; a body naming another object is 400', async (s, fx) => {
    await rejectsWithStatus(s.update(s.ns(), 'missing', sample(fx, 'missing')), 404, 'NotFound', `${qualified(s)} "missing" not found`);
    await s.create(s.ns(), sample(fx, 'a'));
    await rejectsWithStatus(s.update(s.ns(), 'a', sample(fx, 'b')), 400, 'BadRequest', 'the name of the object (b) does not match the name on the URL (a)');
  });

  test('an invalid update is 422 and leaves the stored object as it was', async (s, fx) => {
    const created = await s.create(s.ns(), sample(fx, 'a'));
    const rev = s.revision();
    await rejectsWithStatus(s.update(s.ns(), 'a', sample(fx, 'a', { 'bad key!': 'x' })), 422, 'Invalid', /metadata\.labels/);
    assert.equal(s.revision(), rev);
    assert.deepEqual(await s.get(s.ns(), 'a'), created);
  });

  test('dry-run update answers the change without storing it or telling watchers', async (s, fx) => {
    const created = await s.create(s.ns(), sample(fx, 'a'));
    const watch = await s.watch(s.ns(), { resourceVersion: rvOf(created) });
    const dry = await s.update(s.ns(), 'a', sample(fx, 'a', { dry: 'yes' }), { dryRun: true });
    assert.equal(metaOfObj(dry).labels.dry, 'yes');
    assert.deepEqual(await s.get(s.ns(), 'a'), created);
    await s.patch(s.ns(), 'a', { metadata: { labels: { real: 'yes' } } });
    const events = await watch.next(1);
    watch.stop();
    assert.equal(events.length, 1);
    assert.equal(metaOfObj(events[0].object).labels.real, 'yes');
    assert.equal(metaOfObj(events[0].object).labels.dry, undefined);
  });

  test('patch applies to the current object; concurrent patches all land', async (s, fx) => {
    await s.create(s.ns(), sample(fx, 'a'));
    await Promise.all(['p1', 'p2', 'p3', 'p4'].map((k) => s.patch(s.ns(), 'a', { metadata: { labels: { [k]: 'yes' } } })));
    const labels = metaOfObj(await s.get(s.ns(), 'a')).labels;
    for (const k of ['p1', 'p2', 'p3', 'p4']) assert.equal(labels[k], 'yes', JSON.stringify(labels));
  });

  test('a patch pinning a resourceVersion is a compare-and-swap', async (s, fx) => {
    const created = await s.create(s.ns(), sample(fx, 'a'));
    await s.patch(s.ns(), 'a', { metadata: { labels: { first: 'yes' } } });
    await rejectsWithStatus(s.patch(s.ns(), 'a', { metadata: { resourceVersion: rvOf(created), labels: { second: 'yes' } } }), 409, 'Conflict');
    assert.equal(metaOfObj(await s.get(s.ns(), 'a')).labels.second, undefined);
  });

  test('metadata.generation starts at 1 and counts spec changes only (kinds that keep it)', async (s, fx) => {
    if (!s.info.def.behaviour?.generation || !fx.changeSpec) return;
    const created = await s.create(s.ns(), sample(fx, 'a'));
    assert.equal(metaOfObj(created).generation, 1);
    const labelled = await s.patch(s.ns(), 'a', { metadata: { labels: { x: 'y' } } });
    assert.equal(metaOfObj(labelled).generation, 1);
    const body = structuredClone(labelled);
    fx.changeSpec(body);
    assert.equal(metaOfObj(await s.update(s.ns(), 'a', body)).generation, 2);
  });
}
