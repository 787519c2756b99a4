import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { humanDuration, translateTimestampSince } from './duration.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration (apimachinery duration.HumanDuration)', () => {
  const cases: [number, string][] = [
    // upstream's duration_test.go table
    [S, '1s'],
    [70 * S, '70s'],
    [190 * S, '3m10s'],
    [70 * M, '70m'],
    [47 * H, '47h'],
    [49 * H, '2d1h'],
    [(8 * 24 + 2) * H, '8d'],
    [367 * D, '367d'],
    [(365 * 2 * 24 + 25) * H, '2y1d'],
    [(365 * 8 * 24 + 2) * H, '8y'],
    // the boundaries between the forms
    [0, '0s'],
    [5 * S, '5s'],
    [119 * S + 999, '119s'],
    [2 * M, '2m'],
    [2 * M + 3 * S, '2m3s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M + 30 * S, '10m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [5 * H, '5h'],
    [7 * H + 59 * M, '7h59m'],
    [8 * H + 30 * M, '8h'],
    [3 * D + 4 * H, '3d4h'],
    [7 * D, '7d'],
    [2 * 365 * D, '2y'],
    [20 * 365 * D, '20y'],
  ];
  for (const [ms, want] of cases) {
    it(`${ms}ms -> ${want}`, () => assert.equal(humanDuration(ms), want));
  }

  it('reads up to two seconds in the future as now, beyond that as invalid', () => {
    assert.equal(humanDuration(-500), '0s');
    assert.equal(humanDuration(-1900), '0s');
    assert.equal(humanDuration(-2000), '<invalid>');
  });
});

describe('translateTimestampSince', () => {
  const now = new Date('2024-05-01T12:00:00Z');

  it('prints "<unknown>" for a missing, empty, zero or unparsable timestamp', () => {
    assert.equal(translateTimestampSince(undefined, now), '<unknown>');
    assert.equal(translateTimestampSince(null, now), '<unknown>');
    assert.equal(translateTimestampSince('', now), '<unknown>');
    assert.equal(translateTimestampSince('0001-01-01T00:00:00Z', now), '<unknown>');
    assert.equal(translateTimestampSince('yesterday', now), '<unknown>');
  });

  it('ages RFC 3339 times and micro times', () => {
    assert.equal(translateTimestampSince('2024-05-01T11:59:55Z', now), '5s');
    assert.equal(translateTimestampSince('2024-05-01T11:57:57.000000Z', now), '2m3s');
    assert.equal(translateTimestampSince('2024-04-28T08:00:00Z', now), '3d4h');
  });
});
