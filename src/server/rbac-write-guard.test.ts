import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Attributes, Authorizer } from '../auth/authz/authorizer.js';
import { PolicyIndex } from '../auth/authz/rbac/policy-index.js';
import { rbacAuthorizer } from '../auth/authz/rbac/rbac-authorizer.js';
import { StatusError } from '../machinery/status.js';
import type { RbacWrite } from '../registry/rbac-store.js';
import { rbacWriteGuard } from './rbac-write-guard.js';

const G = 'rbac.authorization.k8s.io';
const jane = { name: 'jane', groups: ['devs'] };

function setup(extra?: (attrs: Attributes) => boolean) {
  const index = new PolicyIndex();
  const rbac = rbacAuthorizer(index, G);
  const asked: Attributes[] = [];
  const authorizer: Authorizer = {
    authorize: (attrs) => {
      asked.push(attrs);
      return extra?.(attrs) ? { decision: 'allow', reason: '' } : rbac.authorize(attrs);
    },
    rulesFor: (u, ns) => rbac.rulesFor(u, ns),
  };
  const guard = rbacWriteGuard({ authorizer: () => authorizer, index, rbacGroup: G });
  index.put('ClusterRole', { metadata: { name: 'pods' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] });
  index.put('ClusterRoleBinding', {
    metadata: { name: 'jane' },
    roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'pods' },
    subjects: [{ kind: 'User', name: 'jane' }],
  });
  return { index, guard, asked };
}

async function refusal(p: void | Promise<void>): Promise<StatusError | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    assert.ok(e instanceof StatusError);
    return e;
  }
}

const clusterRole = (rules: object[], more: object = {}) => ({ metadata: { name: 'cr', ...more }, rules });
const write = (w: Partial<RbacWrite>): RbacWrite => ({
  user: jane,
  resource: 'clusterroles',
  namespace: '',
  requestName: '',
  obj: clusterRole([]),
  old: undefined,
  ...w,
});

test('escalate is asked with the URL name and namespace; masters skip every check', async () => {
  const { guard, asked } = setup((a) => a.verb === 'escalate' && a.name === 'cr');
  const big = clusterRole([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
  // A create has no name in its URL: a rule for that name does not apply.
  assert.equal((await refusal(guard.check(write({ obj: big }))))?.code, 403);
  assert.deepEqual(
    { verb: asked[0].verb, group: asked[0].apiGroup, resource: asked[0].resource, name: asked[0].name, version: asked[0].apiVersion },
    { verb: 'escalate', group: G, resource: 'clusterroles', name: '', version: '*' },
  );
  assert.equal(await refusal(guard.check(write({ obj: big, requestName: 'cr', old: clusterRole([]) }))), undefined);
  assert.equal(await refusal(guard.check(write({ obj: big, user: { name: 'root', groups: ['system:masters'] } }))), undefined);
});

test('an aggregation rule needs full authority; changing only owner references or finalizers needs nothing', async () => {
  const { guard } = setup();
  const aggregated = clusterRole([], { labels: {} });
  (aggregated as Record<string, unknown>).aggregationRule = { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] };
  const e = await refusal(guard.check(write({ obj: aggregated })));
  assert.equal(e?.message, `clusterroles.${G} "cr" is forbidden: must have cluster-admin privileges to use the aggregationRule`);
  const old = clusterRole([{ verbs: ['delete'], apiGroups: [''], resources: ['nodes'] }]);
  const withOwner = clusterRole([{ verbs: ['delete'], apiGroups: [''], resources: ['nodes'] }], { finalizers: ['x'], ownerReferences: [{ name: 'o' }] });
  assert.equal(await refusal(guard.check(write({ obj: withOwner, old, requestName: 'cr' }))), undefined);
  const changed = clusterRole([{ verbs: ['delete', 'get'], apiGroups: [''], resources: ['nodes'] }]);
  assert.equal(
    (await refusal(guard.check(write({ obj: changed, old, requestName: 'cr' }))))?.message,
    `clusterroles.${G} "cr" is forbidden: user "jane" (groups=["devs"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["delete" "get"]}`,
  );
});

test('bindings: bind on the role in the binding namespace, else the role rules must be held', async () => {
  const { guard, asked, index } = setup((a) => a.verb === 'bind' && a.namespace === 'dev' && a.name === 'admin');
  index.put('ClusterRole', { metadata: { name: 'admin' }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] });
  const rb = (role: string, kind = 'ClusterRole') => ({ metadata: { name: 'b', namespace: 'dev' }, roleRef: { apiGroup: G, kind, name: role }, subjects: [] });
  assert.equal(await refusal(guard.check(write({ resource: 'rolebindings', namespace: 'dev', obj: rb('admin') }))), undefined);
  assert.deepEqual([asked[0].resource, asked[0].name, asked[0].namespace], ['clusterroles', 'admin', 'dev']);
  assert.equal((await refusal(guard.check(write({ resource: 'rolebindings', namespace: 'prod', obj: rb('admin') }))))?.code, 403);
  // What jane holds, jane may bind.
  assert.equal(await refusal(guard.check(write({ resource: 'rolebindings', namespace: 'prod', obj: rb('pods') }))), undefined);
  const missing = await refusal(guard.check(write({ resource: 'rolebindings', namespace: 'prod', obj: rb('nope', 'Role') })));
  assert.deepEqual([missing?.code, missing?.message], [404, `roles.${G} "nope" not found`]);
});
