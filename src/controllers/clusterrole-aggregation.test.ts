import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aggregatedRules, type ClusterRoleObj } from './clusterrole-aggregation.js';

const rule = (resource: string) => ({ verbs: ['get'], apiGroups: [''], resources: [resource] });
const role = (name: string, labels: Record<string, string>, rules = [rule(name)]) => ({ metadata: { name, labels }, rules });

test("selectors in order, matched roles by name, each rule once, the aggregated role itself left out (upstream's syncClusterRole)", () => {
  const aggregated: ClusterRoleObj = {
    metadata: { name: 'agg', labels: { a: 'true' } },
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { b: 'true' } }, { matchLabels: { a: 'true' } }] },
    rules: [rule('stale')],
  };
  const roles = [
    aggregated,
    role('zeta', { a: 'true' }),
    role('alpha', { a: 'true' }, [rule('shared'), rule('alpha')]),
    role('beta', { b: 'true' }, [rule('shared')]),
    role('other', { c: 'true' }),
  ];
  assert.deepEqual(aggregatedRules(aggregated, roles), [rule('shared'), rule('alpha'), rule('zeta')]);
});

test('an absent list equals an empty one when de-duplicating; no selector match gives no rules; an invalid selector gives undefined', () => {
  const aggregated: ClusterRoleObj = { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } };
  const withNames = { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] };
  const without = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
  assert.deepEqual(aggregatedRules(aggregated, [role('a', { x: 'y' }, [withNames]), role('b', { x: 'y' }, [without])]), [withNames]);
  assert.deepEqual(aggregatedRules(aggregated, [role('a', { x: 'z' })]), []);
  const invalid: ClusterRoleObj = {
    metadata: { name: 'agg' },
    aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'x', operator: 'Bogus' }] }] },
  };
  assert.equal(aggregatedRules(invalid, [role('a', { x: 'y' })]), undefined);
});
