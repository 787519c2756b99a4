import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canonicalQuantity,
  compareQuantities,
  parseQuantity,
  QUANTITY_FORMAT_ERROR,
  QUANTITY_SUFFIX_ERROR,
  quantityMilliValue,
  quantitySign,
  quantityString,
  quantityValue,
  roundUpQuantity,
} from './quantity.js';

test('quantityValue parses upstream suffixes and rounds up', () => {
  const cases: [string | number, number][] = [
    ['0', 0],
    ['1', 1],
    ['100m', 1],
    ['1500m', 2],
    ['1k', 1000],
    ['1Ki', 1024],
    ['1Gi', 1024 ** 3],
    ['1.5Gi', 1.5 * 1024 ** 3],
    ['1e3', 1000],
    ['1E3', 1000],
    ['1e-3', 1],
    ['2M', 2_000_000],
    ['128974848', 128974848],
    ['129e6', 129_000_000],
    ['123Mi', 123 * 1024 * 1024],
    ['.5', 1],
    ['5.', 5],
    ['-1.5', -2],
    ['+3', 3],
    [110, 110],
    // Upstream's grammar lets the number be empty: a bare suffix is zero.
    ['Mi', 0],
  ];
  for (const [text, want] of cases) assert.equal(quantityValue(text), want, String(text));
});

test('quantityMilliValue gives milli-units', () => {
  const cases: [string, number][] = [
    ['100m', 100],
    ['0.1', 100],
    ['1', 1000],
    ['2.5', 2500],
    ['1u', 1],
    ['1n', 1],
    ['1500u', 2],
    ['0.0001', 1],
    ['1e-3', 1],
    ['4k', 4_000_000],
  ];
  for (const [text, want] of cases) assert.equal(quantityMilliValue(text), want, text);
});

test('invalid quantities throw upstream errors', () => {
  for (const bad of ['', 'abc', '1Gb', '1.2.3', '1 Gi', '1Gix']) assert.throws(() => parseQuantity(bad), { message: QUANTITY_FORMAT_ERROR }, bad);
  for (const bad of ['1GG', '1K', '1e', '1Ki3']) assert.throws(() => parseQuantity(bad), { message: QUANTITY_SUFFIX_ERROR }, bad);
  assert.throws(() => quantityValue('abc'));
});

test('String() is the canonical form upstream stores', () => {
  const cases: [string | number, string][] = [
    ['0.5', '500m'],
    ['1024Mi', '1Gi'],
    ['1000', '1k'],
    ['1500', '1500'],
    ['100m', '100m'],
    ['0.1', '100m'],
    ['1.5', '1500m'],
    ['1536Mi', '1536Mi'],
    ['1.5Gi', '1536Mi'],
    ['0.5Ki', '512'],
    ['1e3', '1e3'],
    ['1E3', '1E3'],
    ['1.5e3', '1500'],
    ['2000e-3', '2'],
    ['0', '0'],
    ['0.0', '0'],
    ['00', '0'],
    ['-1', '-1'],
    ['-1.5', '-1500m'],
    ['1.500', '1.500'],
    ['0.0000000001', '1n'],
    ['1Ki', '1Ki'],
    ['8Ki', '8Ki'],
    ['1025Mi', '1025Mi'],
    ['1024', '1024'],
    ['2048', '2048'],
    ['1000000', '1M'],
    [1, '1'],
    [0.5, '500m'],
  ];
  for (const [text, want] of cases) assert.equal(canonicalQuantity(text), want, String(text));
});

test('compare, sign and rounding', () => {
  const q = (s: string) => parseQuantity(s);
  assert.equal(compareQuantities(q('1'), q('1000m')), 0);
  assert.equal(compareQuantities(q('1Gi'), q('1G')), 1);
  assert.equal(compareQuantities(q('-1'), q('0')), -1);
  assert.equal(compareQuantities(q('1e30'), q('1e29')), 1);
  assert.equal(quantitySign(q('-1m')), -1);
  assert.equal(quantitySign(q('0')), 0);
  assert.equal(quantityString(roundUpQuantity(q('0.0001'), -3)), '1m');
  assert.equal(quantityString(roundUpQuantity(q('100m'), -3)), '100m');
});
