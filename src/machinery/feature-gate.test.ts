import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FeatureSpecs, featureGate, knownFeatures, parseFeatureGateFlag } from './feature-gate.js';

const SPECS: FeatureSpecs = new Map([
  ['Alpha', { default: false, preRelease: 'ALPHA' }],
  ['Beta', { default: true, preRelease: 'BETA' }],
  ['Done', { default: true, preRelease: 'GA' }],
  ['Locked', { default: true, preRelease: 'GA', lockToDefault: true }],
  ['Old', { default: false, preRelease: 'DEPRECATED' }],
] as const);

describe('feature gates', () => {
  it('unset gates are at their defaults; set ones as set', () => {
    const gate = featureGate(SPECS, parseFeatureGateFlag('Alpha=true,Beta=false', new Map(), SPECS));
    assert.equal(gate.enabled('Alpha'), true);
    assert.equal(gate.enabled('Beta'), false);
    assert.equal(gate.enabled('Done'), true);
    assert.throws(() => gate.enabled('Nope'), /feature "Nope" is not registered in FeatureGate/);
  });

  it("refuses an unknown gate and a locked gate's other value in upstream's words", () => {
    assert.throws(() => parseFeatureGateFlag('Nope=true', new Map(), SPECS), /^Error: unrecognized feature gate: Nope$/);
    assert.throws(() => parseFeatureGateFlag('Locked=false', new Map(), SPECS), /^Error: cannot set feature gate Locked to false, feature is locked to true$/);
    assert.equal(parseFeatureGateFlag('Locked=true', new Map(), SPECS).get('Locked'), true);
  });

  it('warns when a GA or deprecated gate is set, as upstream', () => {
    const warnings: string[] = [];
    parseFeatureGateFlag('Done=false,Old=true,Beta=true', new Map(), SPECS, (w) => warnings.push(w));
    assert.deepEqual(warnings, [
      'Setting GA feature gate Done=false. It will be removed in a future release.',
      'Setting deprecated feature gate Old=true. It will be removed in a future release.',
    ]);
  });

  it('lists each gate for --help with its level and default, sorted', () => {
    assert.deepEqual(knownFeatures(SPECS), [
      'Alpha=true|false (ALPHA - default=false)',
      'Beta=true|false (BETA - default=true)',
      'Done=true|false (GA - default=true)',
      'Locked=true|false (GA - default=true)',
      'Old=true|false (DEPRECATED - default=false)',
    ]);
  });
});
