import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDuration, parseGoDuration } from './duration.js';

test('Go durations in nanoseconds', () => {
  assert.equal(parseGoDuration('0'), 0n);
  assert.equal(parseGoDuration('1h30m'), 5_400_000_000_000n);
  assert.equal(parseGoDuration('1.5s'), 1_500_000_000n);
  assert.equal(parseGoDuration('.5ms'), 500_000n);
  assert.equal(parseGoDuration('-2us'), -2_000n);
  assert.equal(parseGoDuration('3µs'), 3_000n);
  assert.equal(parseGoDuration('+7ns'), 7n);
  assert.equal(parseDuration(' 5m '), 300_000);
});

test("Go's ParseDuration messages", () => {
  const cases: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['-', 'time: invalid duration "-"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['1h ', 'time: unknown unit "h " in duration "1h "'],
    ['.s', 'time: invalid duration ".s"'],
    ['x', 'time: invalid duration "x"'],
    ['1é', 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'],
    ['9999999999h', 'time: invalid duration "9999999999h"'],
  ];
  for (const [input, message] of cases) assert.throws(() => parseGoDuration(input), { message }, input);
});

test('a unit named like an Object.prototype member is an unknown unit', () => {
  for (const unit of Object.getOwnPropertyNames(Object.prototype)) {
    assert.throws(() => parseGoDuration(`1${unit}`), { message: `time: unknown unit "${unit}" in duration "1${unit}"` }, unit);
  }
});

test("formatGoDuration prints as Go's Duration.String", async () => {
  const { formatGoDuration, formatDurationMs } = await import('./duration.js');
  assert.equal(formatDurationMs(15_000), '15s');
  assert.equal(formatDurationMs(120_000), '2m0s');
  assert.equal(formatDurationMs(3_600_000), '1h0m0s');
  assert.equal(formatDurationMs(1_500), '1.5s');
  assert.equal(formatDurationMs(500), '500ms');
  assert.equal(formatDurationMs(0), '0s');
  assert.equal(formatGoDuration(1500n), '1.5µs');
  assert.equal(formatDurationMs(-2_000), '-2s');
});
