import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quantityMilliValue, quantityValue } from './quantity.js';

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
  for (const [text, want] of cases) {
    if (want === -1) assert.throws(() => quantityMilliValue(text), text);
    else assert.equal(quantityMilliValue(text), want, text);
  }
});

test('invalid quantities throw', () => {
  for (const bad of ['', 'abc', '1Gb', '1.2.3', 'Mi', '1 Gi']) assert.throws(() => quantityValue(bad), bad);
});
