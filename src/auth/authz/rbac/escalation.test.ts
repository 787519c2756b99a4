import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PolicyRule } from '../../../machinery/authorization.js';
import { breakdownRule, compactRules, compactString, covers, escalationRefusal } from './escalation.js';
import { PolicyIndex } from './policy-index.js';

const G = 'rbac.authorization.k8s.io';

test('Covers: wildcards, subresources through */sub, resource names, URL prefixes', () => {
  const owner: PolicyRule[] = [
    { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', '*/status'] },
    { verbs: ['*'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'] },
    { verbs: ['get'], nonResourceURLs: ['/apis/*', '/healthz'] },
  ];
  const ok = (r: PolicyRule) => covers(owner, [r]).covered;
  assert.ok(ok({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }));
  assert.ok(ok({ verbs: ['get'], apiGroups: [''], resources: ['nodes/status'] }));
  assert.ok(!ok({ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }));
  assert.ok(!ok({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }));
  assert.ok(!ok({ verbs: ['watch'], apiGroups: [''], resources: ['pods'] }));
  assert.ok(ok({ verbs: ['delete'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'] }));
  // A rule for every name is more than a rule for one.
  assert.ok(!ok({ verbs: ['delete'], apiGroups: ['apps'], resources: ['deployments'] }));
  assert.ok(ok({ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['x'] }));
  assert.ok(ok({ verbs: ['get'], nonResourceURLs: ['/apis/apps/v1'] }));
  assert.ok(ok({ verbs: ['get'], nonResourceURLs: ['/apis/*'] }));
  assert.ok(!ok({ verbs: ['get'], nonResourceURLs: ['/api'] }));
  assert.ok(!ok({ verbs: ['get'], nonResourceURLs: ['*'] }));
  assert.ok(covers([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['get'], apiGroups: ['x'], resources: ['y/z'] }]).covered);
});

test('BreakdownRule and CompactRules', () => {
  assert.deepEqual(breakdownRule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }), [
    { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
  ]);
  const missing = covers([], [{ verbs: ['get', 'delete'], apiGroups: ['', 'apps'], resources: ['pods'] }]).missing;
  assert.equal(missing.length, 4);
  assert.deepEqual(compactRules(missing).map(compactString), [
    '{APIGroups:[""], Resources:["pods"], Verbs:["get" "delete"]}',
    '{APIGroups:["apps"], Resources:["pods"], Verbs:["get" "delete"]}',
  ]);
  assert.equal(compactString({ verbs: ['get'], nonResourceURLs: ['/x'] }), '{NonResourceURLs:["/x"], Verbs:["get"]}');
});

test('ConfirmNoEscalation: upstream text, sorted missing rules, resolution errors', () => {
  const index = new PolicyIndex();
  const jane = { name: 'jane', groups: ['g1', 'g2'] };
  index.put('Role', { metadata: { name: 'r', namespace: 'dev' }, rules: [{ verbs: ['create', 'get'], apiGroups: [G], resources: ['roles'] }] });
  index.put('RoleBinding', {
    metadata: { name: 'b', namespace: 'dev' },
    roleRef: { apiGroup: G, kind: 'Role', name: 'r' },
    subjects: [{ kind: 'User', name: 'jane' }],
  });
  assert.equal(escalationRefusal(index, G, jane, 'dev', [{ verbs: ['get'], apiGroups: [G], resources: ['roles'] }]), undefined);
  assert.equal(
    escalationRefusal(index, G, jane, 'dev', [
      { verbs: ['get', 'delete'], apiGroups: [G], resources: ['roles'] },
      { verbs: ['list'], apiGroups: [''], resources: ['secrets'] },
    ]),
    `user "jane" (groups=["g1" "g2"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["list"]}\n{APIGroups:["${G}"], Resources:["roles"], Verbs:["delete"]}`,
  );
  // Elsewhere jane holds nothing, and a binding to a missing role is reported.
  index.put('ClusterRoleBinding', {
    metadata: { name: 'c' },
    roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'gone' },
    subjects: [{ kind: 'Group', name: 'g2' }],
  });
  assert.equal(
    escalationRefusal(index, G, jane, 'prod', [{ verbs: ['get'], apiGroups: [G], resources: ['roles'] }]),
    `user "jane" (groups=["g1" "g2"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["${G}"], Resources:["roles"], Verbs:["get"]}; resolution errors: [clusterroles.${G} "gone" not found]`,
  );
});
