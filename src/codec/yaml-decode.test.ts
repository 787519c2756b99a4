import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeYaml } from './yaml-decode.js';

const OPTS = { maxDepth: 1000, uniqueKeys: true };

test('a mapping or sequence as a key is refused, as JSON keys are strings', () => {
  assert.throws(() => decodeYaml('? [a, b]\n: c\n', OPTS), /invalid map key/);
  assert.throws(() => decodeYaml('? {a: 1}\n: c\n', OPTS), /invalid map key/);
  assert.deepEqual(decodeYaml('a: 1\n"b": [1]\n', OPTS), { a: 1, b: [1] });
});

test('an anchor whose value contains its own alias is refused, never a circular object', () => {
  assert.throws(() => decodeYaml('a: &a {b: *a}\n', OPTS), /anchor 'a' value contains itself/);
  assert.throws(() => decodeYaml('a: &a [1, [*a]]\n', OPTS), /contains itself/);
  // An alias after its anchor's node is an ordinary copy.
  assert.deepEqual(decodeYaml('a: &a {b: 1}\nc: *a\n', OPTS), { a: { b: 1 }, c: { b: 1 } });
});

test('control characters are refused as go-yaml refuses them; tab, CR and LF are fine', () => {
  assert.throws(() => decodeYaml('a: "x\u0000y"\n', OPTS), /control characters are not allowed/);
  assert.throws(() => decodeYaml('{"a":\u000e1}', OPTS), /control characters/);
  assert.deepEqual(decodeYaml('a:\t1\r\nb: 2\n', OPTS), { a: 1, b: 2 });
});

test('a number too large for a float64 is a string, as go-yaml reads it; .inf cannot become JSON', () => {
  const big = '9'.repeat(400);
  assert.deepEqual(decodeYaml(`a: ${big}\n`, OPTS), { a: big });
  assert.deepEqual(decodeYaml(`{"a": ${big}}`, OPTS), { a: big });
  assert.throws(() => decodeYaml('a: .inf\n', OPTS), /unsupported value: \+Inf/);
  assert.deepEqual(decodeYaml('a: 1e3\n', OPTS), { a: 1000 });
});
