import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ControllerEntry, enabledControllers, validateControllerSelection } from './controller-table.js';

const entry: ControllerEntry = { serviceAccount: 'x', init: () => ({ start() {}, stop() {} }) };
const table = new Map([
  ['namespace', entry],
  ['serviceaccount', entry],
  ['tokencleaner', entry],
  ['bootstrapsigner', entry],
]);

test("--controllers as upstream's IsControllerEnabled: '*' skips the disabled-by-default set, a name or -name decides, the first mention wins", () => {
  assert.deepEqual(enabledControllers(['*'], table), ['namespace', 'serviceaccount']);
  assert.deepEqual(enabledControllers(['*', 'tokencleaner'], table), ['namespace', 'serviceaccount', 'tokencleaner']);
  assert.deepEqual(enabledControllers(['*', '-namespace'], table), ['serviceaccount']);
  assert.deepEqual(enabledControllers(['serviceaccount'], table), ['serviceaccount']);
  assert.deepEqual(enabledControllers(['-namespace', 'namespace', '*'], table), ['serviceaccount']);
  assert.deepEqual(enabledControllers([], table), []);
});

test('an unknown name, with or without -, is refused with upstream’s message', () => {
  assert.equal(validateControllerSelection(['*', '-tokencleaner'], table), undefined);
  assert.equal(validateControllerSelection(['*', '-nosuch'], table), '"nosuch" is not in the list of known controllers');
});
