import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldErrorBody } from './status.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from './int-or-percent.js';

test('IntOrString values as upstream reads them', () => {
  assert.equal(intOrPercentValue('25%'), 25);
  assert.equal(intOrPercentValue(3), 3);
  assert.equal(intOrPercentValue('7'), 7);
  assert.equal(intOrPercentValue('x'), 0);
  assert.equal(intOrPercentValue(undefined), 0);
});

test('positive int or percent, with the IntOrString struct in the message', () => {
  assert.deepEqual(validatePositiveIntOrPercent('10%', 'f'), []);
  assert.deepEqual(validatePositiveIntOrPercent(0, 'f'), []);
  const [neg] = validatePositiveIntOrPercent(-1, 'f');
  assert.equal(fieldErrorBody(neg), 'Invalid value: -1: must be greater than or equal to 0');
  const [bad] = validatePositiveIntOrPercent('50', 'f');
  assert.equal(
    fieldErrorBody(bad),
    `Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"50"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
  );
  const [over] = isNotMoreThan100Percent('101%', 'f');
  assert.equal(fieldErrorBody(over), 'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%');
  assert.deepEqual(isNotMoreThan100Percent(500, 'f'), []);
});
