import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Attributes } from '../../../machinery/authorization.js';
import type { UserInfo } from '../../../machinery/user.js';
import { PolicyIndex } from './policy-index.js';
import { rbacAuthorizer } from './rbac-authorizer.js';

const G = 'rbac.authorization.k8s.io';
const jane: UserInfo = { name: 'jane', groups: ['devs', 'system:authenticated'] };

function res(user: UserInfo, verb: string, resource: string, namespace = '', more: Partial<Attributes> = {}): Attributes {
  return { user, verb, isResourceRequest: true, path: '', namespace, apiGroup: '', apiVersion: 'v1', resource, subresource: '', name: '', ...more };
}

function url(user: UserInfo, verb: string, path: string): Attributes {
  return { user, verb, isResourceRequest: false, path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

function role(kind: 'Role' | 'ClusterRole', name: string, rules: object[], namespace?: string) {
  return { kind, metadata: { name, ...(namespace ? { namespace } : {}) }, rules };
}

function binding(kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, roleKind: string, roleName: string, subjects: object[], namespace?: string) {
  return { kind, metadata: { name, ...(namespace ? { namespace } : {}) }, roleRef: { apiGroup: G, kind: roleKind, name: roleName }, subjects };
}

const user = (name: string) => ({ kind: 'User', apiGroup: G, name });
const group = (name: string) => ({ kind: 'Group', apiGroup: G, name });

test('a RoleBinding grants its Role in its namespace only, with upstream reason', () => {
  const index = new PolicyIndex();
  const authz = rbacAuthorizer(index, G);
  index.put('Role', role('Role', 'reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }], 'dev'));
  index.put('RoleBinding', binding('RoleBinding', 'jane-reads', 'Role', 'reader', [user('jane')], 'dev'));
  assert.deepEqual(authz.authorize(res(jane, 'list', 'pods', 'dev')), {
    decision: 'allow',
    reason: 'RBAC: allowed by RoleBinding "jane-reads/dev" of Role "reader" to User "jane"',
  });
  assert.equal(authz.authorize(res(jane, 'list', 'pods', 'other')).decision, 'no-opinion');
  assert.equal(authz.authorize(res(jane, 'list', 'pods')).decision, 'no-opinion');
  assert.equal(authz.authorize(res(jane, 'delete', 'pods', 'dev')).decision, 'no-opinion');
  assert.equal(authz.authorize(res({ name: 'joe', groups: [] }, 'list', 'pods', 'dev')).decision, 'no-opinion');
});

test('resourceNames match only named requests; subresources as res/sub and */sub', () => {
  const index = new PolicyIndex();
  const authz = rbacAuthorizer(index, G);
  index.put(
    'ClusterRole',
    role('ClusterRole', 'r', [
      { verbs: ['get', 'list', 'create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cfg'] },
      { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] },
      { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] },
    ]),
  );
  index.put('ClusterRoleBinding', binding('ClusterRoleBinding', 'b', 'ClusterRole', 'r', [user('jane')]));
  const ok = (a: Attributes) => authz.authorize(a).decision === 'allow';
  assert.ok(ok(res(jane, 'get', 'configmaps', 'x', { name: 'cfg' })));
  assert.ok(!ok(res(jane, 'get', 'configmaps', 'x', { name: 'other' })));
  assert.ok(!ok(res(jane, 'list', 'configmaps', 'x')));
  assert.ok(!ok(res(jane, 'create', 'configmaps', 'x')));
  assert.ok(ok(res(jane, 'update', 'pods', 'x', { subresource: 'status', name: 'p' })));
  assert.ok(ok(res(jane, 'update', 'deployments', 'x', { apiGroup: 'apps', subresource: 'status', name: 'd' })));
  assert.ok(!ok(res(jane, 'update', 'pods', 'x', { name: 'p' })));
  assert.ok(ok(res(jane, 'get', 'deployments', 'x', { apiGroup: 'apps', subresource: 'scale', name: 'd' })));
  assert.ok(!ok(res(jane, 'get', 'deployments', 'x', { apiGroup: 'apps', name: 'd' })));
});

test('non-resource URLs: exact, * and trailing-* prefixes', () => {
  const index = new PolicyIndex();
  const authz = rbacAuthorizer(index, G);
  index.put('ClusterRole', role('ClusterRole', 'urls', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] }]));
  index.put('ClusterRoleBinding', binding('ClusterRoleBinding', 'b', 'ClusterRole', 'urls', [group('devs')]));
  const ok = (verb: string, p: string) => authz.authorize(url(jane, verb, p)).decision === 'allow';
  assert.ok(ok('get', '/healthz'));
  assert.ok(!ok('get', '/healthz/ping'));
  assert.ok(ok('get', '/apis/apps'));
  assert.ok(ok('get', '/apis/'));
  assert.ok(!ok('get', '/apis'));
  assert.ok(!ok('post', '/apis/apps'));
  assert.equal(authz.authorize(url(jane, 'get', '/healthz')).reason, 'RBAC: allowed by ClusterRoleBinding "b" of ClusterRole "urls" to Group "devs"');
});

test('ServiceAccount subjects: namespace defaults to the RoleBinding, required in a ClusterRoleBinding', () => {
  const index = new PolicyIndex();
  const authz = rbacAuthorizer(index, G);
  const sa: UserInfo = { name: 'system:serviceaccount:dev:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:dev'] };
  index.put('ClusterRole', role('ClusterRole', 'pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]));
  index.put('ClusterRole', role('ClusterRole', 'nodes', [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }]));
  index.put('RoleBinding', binding('RoleBinding', 'sa', 'ClusterRole', 'pods', [{ kind: 'ServiceAccount', name: 'builder' }], 'dev'));
  // No namespace in a ClusterRoleBinding: matches nobody.
  index.put('ClusterRoleBinding', binding('ClusterRoleBinding', 'nons', 'ClusterRole', 'nodes', [{ kind: 'ServiceAccount', name: 'builder' }]));
  assert.deepEqual(authz.authorize(res(sa, 'get', 'pods', 'dev')), {
    decision: 'allow',
    reason: 'RBAC: allowed by RoleBinding "sa/dev" of ClusterRole "pods" to ServiceAccount "builder/dev"',
  });
  assert.equal(authz.authorize(res(sa, 'get', 'pods', 'prod')).decision, 'no-opinion');
  assert.equal(authz.authorize(res(sa, 'get', 'nodes')).decision, 'no-opinion');
  index.put(
    'ClusterRoleBinding',
    binding('ClusterRoleBinding', 'nons', 'ClusterRole', 'nodes', [{ kind: 'ServiceAccount', name: 'builder', namespace: 'dev' }]),
  );
  assert.equal(authz.authorize(res(sa, 'get', 'nodes')).decision, 'allow');
  // The SA's own groups work as Group subjects.
  index.put('ClusterRoleBinding', binding('ClusterRoleBinding', 'all-sas', 'ClusterRole', 'pods', [group('system:serviceaccounts')]));
  assert.equal(authz.authorize(res(sa, 'get', 'pods', 'prod')).decision, 'allow');
});

test('the index follows bindings and roles: added, changed, subject moved, removed', () => {
  const index = new PolicyIndex();
  const authz = rbacAuthorizer(index, G);
  const joe: UserInfo = { name: 'joe', groups: [] };
  const canList = (u: UserInfo) => authz.authorize(res(u, 'list', 'pods', 'dev')).decision === 'allow';
  index.put('Role', role('Role', 'reader', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }], 'dev'));
  assert.ok(!canList(jane));
  index.put('RoleBinding', binding('RoleBinding', 'b', 'Role', 'reader', [user('jane')], 'dev'));
  assert.ok(canList(jane));
  assert.ok(!canList(joe));
  // The subject moves from jane to joe.
  index.put('RoleBinding', binding('RoleBinding', 'b', 'Role', 'reader', [user('joe')], 'dev'));
  assert.ok(!canList(jane));
  assert.ok(canList(joe));
  // The role loses the permission.
  index.put('Role', role('Role', 'reader', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], 'dev'));
  assert.ok(!canList(joe));
  index.put('Role', role('Role', 'reader', [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }], 'dev'));
  assert.ok(canList(joe));
  index.delete('RoleBinding', 'dev', 'b');
  assert.ok(!canList(joe));
  assert.equal(index.bindingCount, 0);
  // A reload (the cache listed again) starts from nothing.
  index.put('RoleBinding', binding('RoleBinding', 'b', 'Role', 'reader', [user('joe')], 'dev'));
  index.put('ClusterRoleBinding', binding('ClusterRoleBinding', 'c', 'Role', 'reader', [user('joe')]));
  index.clear('RoleBinding');
  index.clear('ClusterRoleBinding');
  assert.ok(!canList(joe));
  assert.equal(index.bindingCount, 0);
});

test('a binding naming the user and its group is visited once, described by its first applying subject', () => {
  const index = new PolicyIndex();
  const authz = rbacAuthorizer(index, G);
  index.put('ClusterRoleBinding', binding('ClusterRoleBinding', 'both', 'ClusterRole', 'gone', [group('devs'), user('jane')]));
  const rules = authz.rulesFor(jane, '');
  assert.deepEqual(rules, {
    resourceRules: [],
    nonResourceRules: [],
    incomplete: false,
    error: `clusterrole.${G} "gone" not found`,
  });
  index.put('ClusterRole', role('ClusterRole', 'gone', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]));
  assert.equal(authz.authorize(res(jane, 'get', 'pods', 'x')).reason, 'RBAC: allowed by ClusterRoleBinding "both" of ClusterRole "gone" to Group "devs"');
  assert.equal(authz.rulesFor(jane, '').resourceRules.length, 1);
});

test('missing roles: no opinion with every error as the reason (aggregated, de-duplicated)', () => {
  const index = new PolicyIndex();
  const authz = rbacAuthorizer(index, G);
  index.put('ClusterRoleBinding', binding('ClusterRoleBinding', 'a', 'ClusterRole', 'missing', [user('jane')]));
  assert.deepEqual(authz.authorize(res(jane, 'get', 'pods', 'dev')), { decision: 'no-opinion', reason: `RBAC: clusterrole.${G} "missing" not found` });
  index.put('RoleBinding', binding('RoleBinding', 'b', 'Role', 'nope', [group('devs')], 'dev'));
  index.put('RoleBinding', binding('RoleBinding', 'c', 'Role', 'nope', [user('jane')], 'dev'));
  assert.deepEqual(authz.authorize(res(jane, 'get', 'pods', 'dev')), {
    decision: 'no-opinion',
    reason: `RBAC: [clusterrole.${G} "missing" not found, role.${G} "nope" not found]`,
  });
  // Nobody bound: no reason at all.
  assert.deepEqual(authz.authorize(res({ name: 'x', groups: [] }, 'get', 'pods', 'dev')), { decision: 'no-opinion', reason: '' });
});

test('rulesFor: cluster bindings plus the namespace bindings, resource and non-resource rules apart', () => {
  const index = new PolicyIndex();
  const authz = rbacAuthorizer(index, G);
  index.put('ClusterRole', role('ClusterRole', 'basic', [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*'] }]));
  index.put('ClusterRole', role('ClusterRole', 'view', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]));
  index.put('Role', role('Role', 'cfg', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }], 'dev'));
  index.put('ClusterRoleBinding', binding('ClusterRoleBinding', 'basic', 'ClusterRole', 'basic', [group('system:authenticated')]));
  index.put('RoleBinding', binding('RoleBinding', 'view', 'ClusterRole', 'view', [user('jane')], 'dev'));
  index.put('RoleBinding', binding('RoleBinding', 'cfg', 'Role', 'cfg', [user('jane')], 'dev'));
  assert.deepEqual(authz.rulesFor(jane, 'dev'), {
    resourceRules: [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
    ],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*'] }],
    incomplete: false,
  });
  assert.deepEqual(authz.rulesFor(jane, 'other').resourceRules, []);
});
