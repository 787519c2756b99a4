import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeatureGates } from './feature-gates.js';

describe('--feature-gates', () => {
  it('parses key=bool pairs as Go booleans, later flags adding to earlier ones', () => {
    assert.deepEqual(parseFeatureGates('ServerSideApply=false, WatchBookmark=T'), { ServerSideApply: false, WatchBookmark: true });
    assert.deepEqual(parseFeatureGates('DryRun=0', { ServerSideApply: false }), { ServerSideApply: false, DryRun: false });
  });

  it('refuses a missing value, a value that is not a boolean, and an unknown gate as upstream words them', () => {
    assert.throws(() => parseFeatureGates('ServerSideApply'), /^Error: missing bool value for ServerSideApply$/);
    assert.throws(
      () => parseFeatureGates('ServerSideApply=nope'),
      /invalid value of ServerSideApply=nope, err: strconv.ParseBool: parsing "nope": invalid syntax/,
    );
    assert.throws(() => parseFeatureGates('Bogus=true'), /unrecognized feature gate: Bogus/);
  });
});

it('names inherited by every object are unrecognized gates, not accepted', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
    assert.throws(() => parseFeatureGates(`${name}=true`), new RegExp(`unrecognized feature gate: ${name}`));
  }
});
