import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepEqual } from './deep-equal.js';
import { deepEqualSteps, jsonSteps } from './json-steps.js';
import { runAtOnce } from './pace.js';

const encode = (v: unknown) => runAtOnce((due) => jsonSteps(v, due));

test('stepped JSON is the text JSON.stringify writes, whatever the value', () => {
  const proto = JSON.parse('{"__proto__": {"x": 1}, "constructor": "c"}');
  const values: unknown[] = [
    null,
    1.5,
    'a "quoted" \u2028 line',
    [1, undefined, () => 1, null, { a: undefined, b: [] }],
    { z: 1, a: 2, 10: 'ten', 2: 'two', nested: { deep: [{ x: [true, false] }] }, skip: undefined, fn: () => 0 },
    proto,
    { when: new Date(0), bytes: Buffer.from('hi') },
    { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, neg: -0 },
    undefined,
    {},
    [],
  ];
  for (const v of values) assert.equal(encode(v), JSON.stringify(v));
});

test('a map of 100,000 entries pauses between its entries when due, and stays the same text', () => {
  const labels: Record<string, string> = {};
  for (let i = 0; i < 100_000; i++) labels[`k${i}`] = 'v';
  const obj = { metadata: { labels } };
  let looks = 0;
  let pauses = 0;
  const steps = jsonSteps(obj, () => {
    looks++;
    return looks % 3 === 0;
  });
  let r = steps.next();
  while (!r.done) {
    pauses++;
    r = steps.next();
  }
  assert.equal(r.value, JSON.stringify(obj));
  assert.ok(looks >= 40, `looked at the pace ${looks} times`);
  assert.equal(pauses, Math.floor(looks / 3));
});

test('the stepped comparison of a value and its copy, and of other pairs, agrees with deepEqual', () => {
  const labels: Record<string, string> = {};
  for (let i = 0; i < 10_000; i++) labels[`k${i}`] = 'v';
  const values: unknown[] = [
    null,
    'x',
    [1, [2, { a: null }]],
    { metadata: { labels }, spec: { list: [{ x: 1 }, { y: [true] }] } },
    JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"a": 1}}'),
  ];
  let looks = 0;
  const due = () => ++looks % 2 === 0;
  for (const v of values) {
    const copied = structuredClone(v);
    assert.deepEqual(copied, v);
    assert.equal(JSON.stringify(copied), JSON.stringify(v));
    if (v !== null && typeof v === 'object') assert.notEqual(copied, v);
    assert.equal(
      runAtOnce(() => deepEqualSteps(v, copied, due)),
      true,
    );
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was set');
  const pairs: [unknown, unknown][] = [
    [
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ],
    [{ a: 1 }, { a: 1, b: undefined }],
    [
      [1, 2],
      [1, 2, 3],
    ],
    [{ a: [1] }, { a: { 0: 1 } }],
    [{ constructor: 1 }, {}],
    [{ x: { ...labels } }, { x: { ...labels, k5: 'w' } }],
  ];
  for (const [a, b] of pairs)
    assert.equal(
      runAtOnce(() => deepEqualSteps(a, b, due)),
      deepEqual(a, b),
      JSON.stringify([a, b]).slice(0, 80),
    );
  assert.ok(looks > 0);
});
