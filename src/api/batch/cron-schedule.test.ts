import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scheduleError } from './cron-schedule.js';

test('standard five-field schedules, names, steps and descriptors parse', () => {
  for (const s of [
    '* * * * *',
    '*/5 * * * *',
    '0 0 1 1 *',
    '0-59/15 0-23 1-31 1-12 0-6',
    '0 12 * JAN-mar mon-FRI',
    '5,10,,15 * * * ?',
    '0 0 * * sun',
    '@hourly',
    '@yearly',
    '@annually',
    '@monthly',
    '@weekly',
    '@daily',
    '@midnight',
    '@every 1h30m',
    '@every 0',
    'TZ=UTC 0 * * * *',
    'CRON_TZ=America/New_York @daily',
    '  1   2 3 4 5 ',
  ]) {
    assert.equal(scheduleError(s), undefined, s);
  }
});

test("robfig's messages for malformed schedules", () => {
  const cases: [string, string][] = [
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['*/5 * * * * *', 'expected exactly 5 fields, found 6: [*/5 * * * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['* * * 13 *', 'end of range (13) above maximum (12): 13'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
    ['-5 * * * *', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'],
    ['*/-1 * * * *', 'negative number (-1) not allowed: -1'],
    ['99999999999999999999 * * * *', 'failed to parse int from 99999999999999999999: strconv.Atoi: parsing "99999999999999999999": value out of range'],
    ['9999999999999999999 * * * *', 'failed to parse int from 9999999999999999999: strconv.Atoi: parsing "9999999999999999999": value out of range'],
    ['999999999999999999 * * * *', 'end of range (999999999999999999) above maximum (59): 999999999999999999'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@hourly ', 'unrecognized descriptor: @hourly '],
    ['@every 1d', 'failed to parse duration @every 1d: time: unknown unit "d" in duration "1d"'],
    ['@every ', 'failed to parse duration @every : time: invalid duration ""'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['TZ=Mars/Base * * * * *', 'provided bad location Mars/Base: unknown time zone Mars/Base'],
  ];
  for (const [spec, message] of cases) assert.equal(scheduleError(spec), message, spec);
});
