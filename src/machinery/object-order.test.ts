import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inGoOrder } from './object-order.js';

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
