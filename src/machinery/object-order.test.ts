import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Obj } from './object.js';
import { goOrderedJson, goOrderedJsonSteps, inGoOrder } from './object-order.js';
import { runAtOnce } from './pace.js';

test('inGoOrder puts kind, apiVersion and metadata (in ObjectMeta order) first and keeps the rest in order', () => {
  const obj = { spec: { b: 1, a: 2 }, metadata: { labels: { x: 'y' }, uid: 'u', name: 'n', extra: 1 }, apiVersion: 'v1', status: {}, kind: 'Pod' };
  const ordered = inGoOrder(obj);
  assert.equal(
    JSON.stringify(ordered),
    '{"kind":"Pod","apiVersion":"v1","metadata":{"name":"n","uid":"u","labels":{"x":"y"},"extra":1},"spec":{"b":1,"a":2},"status":{}}',
  );
  // A shallow copy: the caller's object is unchanged, its members shared.
  assert.deepEqual(Object.keys(obj), ['spec', 'metadata', 'apiVersion', 'status', 'kind']);
  assert.equal(ordered.spec, obj.spec);
});

test('inGoOrder keeps a `__proto__` key as a key, and leaves out absent kind and apiVersion', () => {
  const obj = JSON.parse('{"spec":{},"__proto__":{"polluted":true},"metadata":{"name":"n"}}') as Record<string, unknown>;
  const ordered = inGoOrder(obj);
  assert.equal(Object.getPrototypeOf(ordered), Object.prototype);
  assert.equal((ordered as { polluted?: boolean }).polluted, undefined);
  assert.equal(JSON.stringify(ordered), '{"metadata":{"name":"n"},"spec":{},"__proto__":{"polluted":true}}');
});

test('the stepped storage encoding is the text goOrderedJson writes', () => {
  const labels: Record<string, string> = {};
  for (let i = 0; i < 5000; i++) labels[`k${i}`] = 'v';
  const objects: Obj[] = [
    { spec: { a: 1 }, metadata: { labels, resourceVersion: '5', name: 'n', zz: 1 }, apiVersion: 'v1', kind: 'ConfigMap' },
    { kind: 'X', metadata: null },
    { kind: 'X', metadata: ['odd'] },
    { kind: 'X', apiVersion: undefined, metadata: { name: undefined, uid: 'u' }, data: { b: undefined } },
    JSON.parse('{"kind":"X","metadata":{"name":"n","__proto__":{"a":1}},"__proto__":[1]}'),
  ];
  let looks = 0;
  for (const obj of objects) {
    const steps = goOrderedJsonSteps(obj, 'resourceVersion', () => ++looks % 2 === 0);
    let r = steps.next();
    while (!r.done) r = steps.next();
    assert.equal(r.value, goOrderedJson(obj, 'resourceVersion'));
    assert.equal(
      runAtOnce(() => goOrderedJsonSteps(obj, undefined, () => false)),
      goOrderedJson(obj),
    );
  }
  assert.ok(looks > 0);
  assert.equal((objects[0].metadata as Record<string, unknown>).resourceVersion, '5', 'the object itself keeps its resourceVersion');
});
