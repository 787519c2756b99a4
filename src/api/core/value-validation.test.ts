import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody } from '../../machinery/status.js';
import { isConfigMapKey, isEnvVarName, isValidPortName, parseCIDR, parseIP, validateNonSpecialIP } from './value-validation.js';

test('port names as IANA service names', () => {
  assert.deepEqual(isValidPortName('http'), []);
  assert.deepEqual(isValidPortName('8080'), ['must contain at least one letter (a-z)']);
  assert.deepEqual(isValidPortName('-a--b'), ['must not contain consecutive hyphens', 'must not begin or end with a hyphen']);
  assert.deepEqual(isValidPortName('a-very-long-port-name'), ['must be no more than 15 characters']);
});

test('env var names and config keys refuse chdir prefixes', () => {
  assert.deepEqual(isEnvVarName('..x'), ["must not start with '..'"]);
  assert.deepEqual(isConfigMapKey('.'), ["must not be '.'"]);
  assert.deepEqual(isConfigMapKey('a.b_c-d'), []);
});

test('IPs and CIDRs parse as Go sloppy parsing does', () => {
  assert.equal(parseIP('010.001.1.1')?.family, 4);
  assert.equal(parseIP('::ffff:1.2.3.4')?.family, 6);
  assert.equal(parseIP('1.2.3'), undefined);
  assert.equal(parseCIDR('10.0.0.0/8')?.family, 4);
  assert.equal(parseCIDR('10.0.0.0/33'), undefined);
  assert.equal(parseCIDR('fd00::/64')?.family, 6);
  assert.deepEqual(validateNonSpecialIP('169.254.1.1', 'ip').map(fieldErrorBody), [
    'Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
  ]);
  assert.deepEqual(validateNonSpecialIP('0.0.0.0', 'ip').map(fieldErrorBody), ['Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)']);
});
