import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadLocationError } from './time-zone.js';

test('time zones Go loads', () => {
  for (const tz of ['', 'UTC', 'Local', 'America/New_York', 'Europe/Kyiv', 'Etc/GMT+5', 'Asia/Calcutta', 'US/Eastern', 'EST5EDT']) {
    assert.equal(loadLocationError(tz), undefined, tz);
  }
});

test("Go's errors for names it cannot load (case matters, offsets are not zones)", () => {
  assert.equal(loadLocationError('Mars/Base'), 'unknown time zone Mars/Base');
  assert.equal(loadLocationError('america/new_york'), 'unknown time zone america/new_york');
  assert.equal(loadLocationError('+05:00'), 'unknown time zone +05:00');
  assert.equal(loadLocationError('../etc/passwd'), 'time: invalid location name');
  assert.equal(loadLocationError('/etc/localtime'), 'time: invalid location name');
});
