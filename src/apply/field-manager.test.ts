import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiSchemas } from '../api/schema/index.js';
import type { Obj } from '../machinery/object.js';
import { StatusError } from '../machinery/status.js';
import { FieldManager } from './field-manager.js';
import { setOf } from './ssa/field-set.js';
import { fieldElement } from './ssa/path-element.js';
import { next, randomRoot, rngOf } from './ssa/random-objects.test.js';
import { zeroObject } from './ssa/zero-object.js';
import { LOOKUP } from './ssa/test-schemas.test.js';
import { typeOfKind } from './ssa/typed-schema.js';

const type = typeOfKind(LOOKUP, 'test', 'v1', 'Root');
let clock = Date.parse('2024-01-01T00:00:00Z');
const tick = () => {
  clock += 1000;
};
const fm = (subresource = '') =>
  new FieldManager({
    type,
    apiVersion: 'test/v1',
    kind: 'Root',
    subresource,
    resetFields: subresource === '' ? setOf([fieldElement('status')]) : undefined,
    now: () => new Date(clock),
  });

const obj = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): Obj => ({
  apiVersion: 'test/v1',
  kind: 'Root',
  metadata: { name: 'x', ...meta },
  spec,
});
const entries = (o: Obj) => (o.metadata?.managedFields ?? []) as Array<Record<string, unknown>>;
const summary = (o: Obj) => entries(o).map((e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}: ${JSON.stringify(e.fieldsV1)}`);
/** The object as stored after a create (a uid, so later writes are updates). */
const stored = (o: Obj): Obj => ({ ...o, metadata: { ...o.metadata, uid: 'u1' } });

function status(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  assert.fail('expected a StatusError');
}

describe('FieldManager.update', () => {
  it('records a create as an Update entry: time, fieldsType, owned fields with `.` for new structs', () => {
    const created = fm().update(undefined, obj({ replicas: 1, data: { a: 'b' } }, { labels: { app: 'x' } }), 'kubectl-create');
    assert.deepEqual(entries(created), [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'test/v1',
        time: '2024-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:data': { '.': {}, 'f:a': {} }, 'f:replicas': {} } },
      },
    ]);
  });

  it('merges consecutive updates of one manager into its entry; the time moves only when fields change', () => {
    let o = stored(fm().update(undefined, obj({ replicas: 1 }), 'ctl'));
    tick();
    o = stored(fm().update(o, { ...obj({ replicas: 1, data: { k: 'v' } }), metadata: o.metadata }, 'ctl'));
    assert.deepEqual(summary(o), ['ctl/Update: {"f:spec":{"f:data":{".":{},"f:k":{}},"f:replicas":{}}}']);
    assert.equal(entries(o)[0].time, '2024-01-01T00:00:01Z');
    tick();
    o = fm().update(o, structuredClone(o), 'ctl');
    assert.equal(entries(o)[0].time, '2024-01-01T00:00:01Z');
  });

  it('moves a field another manager owns to the writer; a manager left with nothing is dropped', () => {
    let o = stored(fm().update(undefined, obj({ replicas: 1 }), 'a'));
    o = fm().update(o, { ...obj({ replicas: 2 }), metadata: o.metadata }, 'b');
    assert.deepEqual(summary(o), ['b/Update: {"f:spec":{"f:replicas":{}}}']);
  });

  it('status writes are their own entries (subresource), and main writes do not own status', () => {
    let o = stored(fm().update(undefined, { ...obj({ replicas: 1 }), status: { replicas: 5 } }, 'ctl'));
    assert.deepEqual(summary(o), ['ctl/Update: {"f:spec":{"f:replicas":{}}}']);
    o = fm('status').update(o, { ...structuredClone(o), status: { replicas: 1 } }, 'ctl');
    assert.deepEqual(summary(o), ['ctl/Update: {"f:spec":{"f:replicas":{}}}', 'ctl/Update/status: {"f:status":{"f:replicas":{}}}']);
  });

  it('resets with `[{}]` or `[]`; an untracked object is tracked again only by an apply', () => {
    const o = stored(fm().update(undefined, obj({ replicas: 1 }), 'a'));
    for (const reset of [[{}], []]) {
      const cleared = fm().update(o, { ...obj({ replicas: 2 }), metadata: { ...o.metadata, managedFields: reset } }, 'b');
      assert.equal(cleared.metadata?.managedFields, undefined);
      assert.equal(fm().update(cleared, obj({ replicas: 3 }, { uid: 'u1' }), 'c').metadata?.managedFields, undefined);
      const applied = fm().apply(cleared, obj({ data: { k: 'v' } }), 'applier', false);
      assert.deepEqual(summary(applied), ['applier/Apply: {"f:spec":{"f:data":{"f:k":{}}}}', 'before-first-apply/Update: {"f:spec":{"f:replicas":{}}}']);
    }
  });

  it('takes managedFields a client sends (a stale copy included), but falls back to the live ones when they are invalid', () => {
    const o = stored(fm().update(undefined, obj({ replicas: 1 }), 'a'));
    const stale = [{ manager: 'old', operation: 'Update', apiVersion: 'test/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:data': {} } } }];
    assert.deepEqual(summary(fm().update(o, { ...obj({ replicas: 1 }), metadata: { ...o.metadata, managedFields: stale } }, 'a')), [
      'old/Update: {"f:spec":{"f:data":{}}}',
    ]);
    const invalid = [{ manager: 'old', operation: 'Patch', apiVersion: 'test/v1', fieldsType: 'FieldsV1' }];
    assert.deepEqual(summary(fm().update(o, { ...obj({ replicas: 1 }), metadata: { ...o.metadata, managedFields: invalid } }, 'a')), [
      'a/Update: {"f:spec":{"f:replicas":{}}}',
    ]);
  });

  it('caps update managers at ten, the oldest merged into ancient-changes', () => {
    const start = clock;
    let o = stored(fm().update(undefined, obj({ replicas: 1 }), 'first'));
    for (let i = 0; i < 11; i++) {
      tick();
      o = stored(fm().update(o, { ...obj({ replicas: 1, data: { ...((o.spec as Obj)?.data as object), [`k${i}`]: 'v' } }), metadata: o.metadata }, `m${i}`));
    }
    const managers = entries(o).map((e) => e.manager);
    // Twelve update managers: the three oldest (first, m0, m1) become one ancient-changes entry.
    assert.equal(managers.length, 10);
    assert.equal(managers[0], 'ancient-changes');
    assert.deepEqual(entries(o)[0].fieldsV1, { 'f:spec': { 'f:data': { '.': {}, 'f:k0': {}, 'f:k1': {} }, 'f:replicas': {} } });
    // The bucket keeps the time of the last update merged into it (m1's).
    assert.equal(entries(o)[0].time, new Date(start + 2000).toISOString().replace('.000', ''));
  });

  it('drops managedFields when the object does not fit its type (UpdateNoErrors)', () => {
    const o = stored(fm().update(undefined, obj({ replicas: 1 }), 'a'));
    const dup = fm().update(o, { ...obj({ containers: [{ name: 'c' }, { name: 'c' }] }), metadata: o.metadata }, 'a');
    assert.equal(dup.metadata?.managedFields, undefined);
  });
});

describe('FieldManager.apply', () => {
  it('creates with one Apply entry; the same value applied by another manager is shared', () => {
    const o = stored(fm().apply(undefined, obj({ replicas: 1 }), 'a', false));
    const shared = fm().apply(o, obj({ replicas: 1 }), 'b', false);
    // b changed nothing, so (as upstream) its entry has no time and sorts first.
    assert.deepEqual(summary(shared), ['b/Apply: {"f:spec":{"f:replicas":{}}}', 'a/Apply: {"f:spec":{"f:replicas":{}}}']);
    assert.equal(entries(shared)[0].time, undefined);
  });

  it('conflicts name each manager and field as upstream', () => {
    let o = stored(fm().apply(undefined, obj({ replicas: 1, data: { a: '1' } }), 'a', false));
    o = stored(fm().update(o, { ...obj({ replicas: 1, data: { a: '1', b: '2' } }), metadata: o.metadata }, 'ctl'));
    const one = status(() => fm().apply(o, obj({ replicas: 2 }), 'b', false));
    assert.equal(one.code, 409);
    assert.equal(one.message, 'Apply failed with 1 conflict: conflict with "a": .spec.replicas');
    assert.deepEqual(one.details?.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.replicas' }]);
    const many = status(() => fm().apply(o, obj({ replicas: 2, data: { a: 'x', b: 'y' } }), 'b', false));
    assert.equal(
      many.message,
      'Apply failed with 3 conflicts: conflicts with "a":\n- .spec.replicas\n- .spec.data.a\nconflicts with "ctl" using test/v1:\n- .spec.data.b',
    );
    assert.deepEqual(
      many.details?.causes?.map((c) => `${c.message} ${c.field}`),
      ['conflict with "a" .spec.replicas', 'conflict with "a" .spec.data.a', 'conflict with "ctl" using test/v1 .spec.data.b'],
    );
  });

  it('force takes the field from every other manager', () => {
    let o = stored(fm().apply(undefined, obj({ replicas: 1, data: { k: 'v' } }), 'a', false));
    o = fm().apply(o, obj({ replicas: 3 }), 'b', true);
    assert.deepEqual(summary(o), ['a/Apply: {"f:spec":{"f:data":{"f:k":{}}}}', 'b/Apply: {"f:spec":{"f:replicas":{}}}']);
    assert.equal((o.spec as Obj).replicas, 3);
  });

  it('reads a live object holding fields its type lacks as upstream decodes it: without them', () => {
    // Written before every write dropped unknown fields: `constructor` found an inherited schema entry.
    const own = (o: Record<string, unknown>, key: string, value: unknown) =>
      Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
    const item = own({ name: 'c' }, 'toString', 1);
    const spec = own({ replicas: 1, containers: [item] }, '__proto__', { x: 1 });
    const untracked = stored(own(obj(spec), 'constructor', { polluted: 'yes' }) as Obj);
    const applied = fm().apply(untracked, obj({ replicas: 2 }), 'a', true);
    assert.equal(JSON.stringify(applied.spec), '{"replicas":2,"containers":[{"name":"c"}]}');
    assert.ok(!Object.hasOwn(applied, 'constructor'));
    assert.deepEqual(summary(applied), [
      'a/Apply: {"f:spec":{"f:replicas":{}}}',
      'before-first-apply/Update: {"f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:name":{}}}}}',
    ]);
    const tracked = stored(own(fm().update(undefined, obj({ replicas: 1 }), 'a'), 'constructor', 1) as Obj);
    const updated = fm().update(tracked, { ...obj({ replicas: 3 }), metadata: tracked.metadata }, 'b');
    assert.deepEqual(summary(updated), ['b/Update: {"f:spec":{"f:replicas":{}}}']);
  });

  it('refuses another kind, managedFields in the config, and a config its type cannot hold', () => {
    assert.equal(status(() => fm().apply(undefined, { ...obj({}), apiVersion: 'test/v2' }, 'a', false)).message, 'invalid object type: test/v2, Kind=Root');
    const mf = status(() => fm().apply(undefined, obj({}, { managedFields: [] }), 'a', false));
    assert.deepEqual([mf.code, mf.message], [400, 'metadata.managedFields must be nil']);
    const typed = status(() => fm().apply(undefined, obj({ replicas: 1, bogus: true }, { namespace: 'ns' }), 'a', false));
    assert.deepEqual(
      [typed.code, typed.message],
      [400, 'failed to create typed patch object (ns/x; test/v1, Kind=Root): .spec.bogus: field not declared in schema'],
    );
  });

  it('kubectl may take over fields client-side apply set to its last-applied values, and keeps the annotation current', () => {
    const last = JSON.stringify(obj({ replicas: 1 }));
    const annotations = { 'kubectl.kubernetes.io/last-applied-configuration': last };
    let o = stored(fm().update(undefined, obj({ replicas: 1 }, { annotations }), 'kubectl-client-side-apply'));
    o = fm().apply(o, obj({ replicas: 2 }), 'kubectl', false);
    assert.equal((o.spec as Obj).replicas, 2);
    assert.equal(
      (o.metadata?.annotations as Record<string, string> | undefined)?.['kubectl.kubernetes.io/last-applied-configuration'],
      `${JSON.stringify(obj({ replicas: 2 }))}\n`,
    );
    assert.equal(status(() => fm().apply(stored(o), obj({ replicas: 3 }), 'other', false)).code, 409);
  });

  it('sorts entries Apply first, then by time, then by manager', () => {
    let o = stored(fm().update(undefined, obj({ replicas: 1 }), 'zeta'));
    tick();
    o = stored(fm().apply(o, obj({ data: { a: 'b' } }), 'beta', false));
    tick();
    o = stored(fm().apply(o, obj({ data: { c: 'd' } }), 'alpha', false));
    assert.deepEqual(
      entries(o).map((e) => `${e.operation} ${e.manager}`),
      ['Apply beta', 'Apply alpha', 'Update zeta'],
    );
  });
});

describe('FieldManager.update of a new object', () => {
  it('records from the shared zero object what an update over a copy of it records (random objects)', () => {
    const zero = zeroObject('test/v1', 'Root', type.atom);
    const rng = rngOf(3);
    for (let i = 0; i < 300; i++) {
      const o = randomRoot(rng) as Obj;
      // A third of them come with managedFields, which a create keeps when they decode.
      if (i % 3 === 0) o.metadata = { ...o.metadata, managedFields: entries(fm().update(undefined, next(rng, o) as Obj, 'earlier')) };
      const created = fm().update(undefined, structuredClone(o), 'creator');
      const general = fm().update(structuredClone(zero) as Obj, structuredClone(o), 'creator');
      assert.deepEqual(created, general, JSON.stringify(o));
    }
    assert.ok(Object.isFrozen(zero), 'the zero object is shared: it must stay unmodified');
  });
});

describe('served schemas', () => {
  it('are loaded (the generated definitions of every served type)', () => {
    assert.ok(Object.keys(apiSchemas().definitions).length > 400);
    const deployment = typeOfKind(apiSchemas(), 'apps', 'v1', 'Deployment').atom;
    const podSpec = deployment.map?.fields.get('spec')?.type.atom.map?.fields.get('template')?.type.atom.map?.fields.get('spec')?.type.atom.map;
    assert.deepEqual(podSpec?.fields.get('containers')?.type.atom.list?.keys, ['name']);
    assert.equal(deployment.map?.fields.get('spec')?.type.atom.map?.fields.get('selector')?.type.atom.map?.relationship, 'atomic');
  });
});
