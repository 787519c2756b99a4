import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateConditions } from './condition-validation.js';
import { fieldErrorBody } from './status.js';

test('conditions: unique types, known statuses, a transition time and a reason', () => {
  const ok = { type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z', reason: 'AllGood' };
  assert.deepEqual(validateConditions([ok], 'status.conditions'), []);
  const errs = validateConditions([ok, { type: 'Ready', status: 'Maybe', reason: '1bad' }], 'status.conditions');
  assert.deepEqual(
    errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`),
    [
      'status.conditions[1].type: Duplicate value: "Ready"',
      'status.conditions[1].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'status.conditions[1].lastTransitionTime: Required value: must be set',
      `status.conditions[1].reason: Invalid value: "1bad": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')`,
    ],
  );
});
