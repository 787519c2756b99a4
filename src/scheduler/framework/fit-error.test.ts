import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fitErrorMessage } from './fit-error.js';
import { type Status, unresolvable, unschedulable } from './status.js';

test('FailedScheduling message counts every reason and sorts as strings', () => {
  const statuses = new Map<string, Status>([
    ['n1', unschedulable('Insufficient cpu')],
    ['n2', unschedulable('Insufficient cpu', 'Insufficient memory')],
    ['n3', unschedulable('Insufficient cpu')],
    ['n4', unresolvable('node(s) had untolerated taint {key: value}')],
    ['n5', unresolvable('node(s) had untolerated taint {key: value}')],
  ]);
  assert.equal(
    fitErrorMessage(5, statuses),
    '0/5 nodes are available: 1 Insufficient memory, 2 node(s) had untolerated taint {key: value}, 3 Insufficient cpu.',
  );
});

test('counts are sorted lexically, as Go sort.Strings does', () => {
  const statuses = new Map<string, Status>();
  for (let i = 0; i < 10; i++) statuses.set(`a${i}`, unschedulable('a'));
  for (let i = 0; i < 2; i++) statuses.set(`b${i}`, unschedulable('b'));
  assert.equal(fitErrorMessage(12, statuses), '0/12 nodes are available: 10 a, 2 b.');
});
