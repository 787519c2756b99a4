import assert from 'node:assert/strict';
import { test } from 'node:test';
import { breakdownRule, uncoveredRules } from './policy-rule-covers.js';

test('breakdown: one rule per group, resource, verb and name; URLs per verb', () => {
  assert.deepEqual(breakdownRule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }), [
    { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
    { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
  ]);
  assert.deepEqual(breakdownRule({ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'] }).length, 2);
  assert.deepEqual(breakdownRule({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] }), [
    { verbs: ['get'], nonResourceURLs: ['/a'] },
    { verbs: ['get'], nonResourceURLs: ['/b'] },
  ]);
});

test('uncovered: what the owner lacks, as atomic rules', () => {
  const owner = [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }];
  assert.deepEqual(uncoveredRules(owner, [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]), [
    { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
  ]);
  assert.deepEqual(
    uncoveredRules([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['delete'], apiGroups: ['apps'], resources: ['deployments/scale'] }]),
    [],
  );
});

test('wildcards: `*/sub` covers that subresource only; names are covered by no names or the same names; URL prefixes', () => {
  const sub = [{ verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }];
  assert.deepEqual(uncoveredRules(sub, [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }]), []);
  assert.equal(uncoveredRules(sub, [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }]).length, 1);
  const named = [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }];
  assert.deepEqual(uncoveredRules(named, [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }]), []);
  assert.equal(uncoveredRules(named, [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]).length, 1, 'a named rule does not cover all names');
  assert.deepEqual(uncoveredRules([{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/apis/apps'] }]), []);
  assert.equal(uncoveredRules([{ verbs: ['get'], nonResourceURLs: ['/apis'] }], [{ verbs: ['get'], nonResourceURLs: ['/apis/apps'] }]).length, 1);
});
