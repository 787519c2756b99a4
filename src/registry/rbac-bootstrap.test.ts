import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ALL_RESOURCES } from '../api/catalogue.js';
import { bootstrapPolicy } from '../api/rbac/bootstrap-policy.js';
import type { PolicyRule } from '../machinery/authorization.js';
import { KUBERNETES_BRAND } from '../machinery/brand.js';
import { metaOf, type Obj } from '../machinery/object.js';
import { uncoveredRules } from '../machinery/policy-rule-covers.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { systemContext } from './bootstrap.js';
import { entryObject } from './cache-entry.js';
import type { GenericStore } from './generic-store.js';
import { reconcileBootstrapPolicy } from './rbac-bootstrap.js';
import { Registry } from './registry.js';

const GROUP = 'rbac.authorization.k8s.io';
const AUTOUPDATE = 'rbac.authorization.kubernetes.io/autoupdate';
const policy = bootstrapPolicy(KUBERNETES_BRAND);
const expectedRole = (name: string) => policy.clusterRoles.find((r) => r.metadata?.name === name) as Obj;

describe('bootstrap reconciliation (compat names)', () => {
  let registry: Registry;
  let store: MemoryStore;
  const storeOf = (resource: string) => registry.byResource(GROUP, resource) as GenericStore;
  const get = async (resource: string, name: string, namespace = '') => entryObject(await storeOf(resource).readEntry(namespace, name, { kind: 'latest' }));
  const change = (resource: string, name: string, edit: (o: Obj) => void, namespace = '') =>
    storeOf(resource).guaranteedUpdate(
      systemContext(registry),
      namespace,
      name,
      (o) => {
        edit(o);
        return o;
      },
      { dryRun: false, subresource: '' },
    );

  before(async () => {
    store = new MemoryStore();
    registry = new Registry(ALL_RESOURCES, KUBERNETES_BRAND, store);
    await registry.startCaches();
  });
  after(() => registry.stopCaches());

  test('the first start creates every object of the policy', async () => {
    const report = await reconcileBootstrapPolicy(registry);
    const total = policy.clusterRoles.length + policy.clusterRoleBindings.length + policy.roles.length + policy.roleBindings.length;
    assert.equal(report.created.length, total);
    assert.deepEqual([report.updated, report.recreated, report.protected], [[], [], []]);
    const admin = await get('clusterroles', 'admin');
    assert.deepEqual(admin.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { [`${GROUP}/aggregate-to-admin`]: 'true' } }] });
    const reader = await get('roles', 'extension-apiserver-authentication-reader', 'kube-system');
    assert.equal(metaOf(reader).annotations?.[AUTOUPDATE], 'true');
  });

  test('a restart with nothing changed writes nothing', async () => {
    const revision = store.currentRevision();
    const report = await reconcileBootstrapPolicy(registry);
    assert.deepEqual(report, { created: [], updated: [], recreated: [], protected: [] });
    assert.equal(store.currentRevision(), revision);
  });

  test('a removed rule comes back; a rule a user added stays', async () => {
    const userRule: PolicyRule = { verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] };
    await change('clusterroles', 'system:basic-user', (o) => {
      o.rules = [userRule];
    });
    await change('clusterroles', 'system:discovery', (o) => {
      (o.rules as PolicyRule[]).push(userRule);
    });
    const report = await reconcileBootstrapPolicy(registry);
    assert.deepEqual(report.updated, ['clusterroles/system:basic-user']);
    const basic = await get('clusterroles', 'system:basic-user');
    const rules = basic.rules as PolicyRule[];
    assert.deepEqual(rules[0], userRule);
    assert.deepEqual(uncoveredRules(rules, expectedRole('system:basic-user').rules as PolicyRule[]), [], 'covers the policy again');
    // Upstream adds back the missing permissions as atomic rules.
    assert.deepEqual(rules.slice(1), [
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    ]);
    assert.deepEqual((await get('clusterroles', 'system:discovery')).rules, [...(expectedRole('system:discovery').rules as PolicyRule[]), userRule]);
  });

  test('missing subjects, labels and annotations come back; what users added stays', async () => {
    const alice = { kind: 'User', apiGroup: GROUP, name: 'alice' };
    await change('clusterrolebindings', 'system:basic-user', (o) => {
      o.subjects = [alice];
      const meta = metaOf(o);
      meta.labels = { team: 'a' };
      meta.annotations = {};
    });
    await reconcileBootstrapPolicy(registry);
    const binding = await get('clusterrolebindings', 'system:basic-user');
    assert.deepEqual(binding.subjects, [alice, { kind: 'Group', apiGroup: GROUP, name: 'system:authenticated' }]);
    assert.deepEqual(metaOf(binding).labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults', team: 'a' });
    assert.deepEqual(metaOf(binding).annotations, { [AUTOUPDATE]: 'true' });
  });

  test('an object annotated autoupdate "false" is left exactly as it is', async () => {
    await change('clusterroles', 'system:monitoring', (o) => {
      o.rules = [];
      metaOf(o).annotations = { [AUTOUPDATE]: 'false' };
    });
    const before = await get('clusterroles', 'system:monitoring');
    const report = await reconcileBootstrapPolicy(registry);
    assert.deepEqual(report.protected, ['clusterroles/system:monitoring']);
    assert.deepEqual(await get('clusterroles', 'system:monitoring'), before);
  });

  test('a deleted object is created again; a lost aggregation rule is set again', async () => {
    await storeOf('clusterrolebindings').delete(systemContext(registry), '', 'cluster-admin', { dryRun: false });
    await storeOf('roles').delete(systemContext(registry), 'kube-system', 'system:controller:token-cleaner', { dryRun: false });
    await change('clusterroles', 'view', (o) => {
      delete o.aggregationRule;
    });
    const report = await reconcileBootstrapPolicy(registry);
    assert.deepEqual(report.created.sort(), ['clusterrolebindings/cluster-admin', 'roles/kube-system/system:controller:token-cleaner']);
    assert.deepEqual(report.updated, ['clusterroles/view']);
    assert.deepEqual((await get('clusterrolebindings', 'cluster-admin')).subjects, [{ kind: 'Group', apiGroup: GROUP, name: 'system:masters' }]);
    assert.deepEqual((await get('clusterroles', 'view')).aggregationRule, expectedRole('view').aggregationRule);
  });

  test('a binding to another role is recreated with the policy roleRef, keeping its subjects', async () => {
    const ctx = systemContext(registry);
    const bindings = storeOf('clusterrolebindings');
    await bindings.delete(ctx, '', 'system:kube-dns', { dryRun: false });
    const bob = { kind: 'User', apiGroup: GROUP, name: 'bob' };
    await bindings.create(
      ctx,
      '',
      { metadata: { name: 'system:kube-dns' }, roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'view' }, subjects: [bob] },
      { dryRun: false },
    );
    const report = await reconcileBootstrapPolicy(registry);
    assert.deepEqual(report.recreated, ['clusterrolebindings/system:kube-dns']);
    const b = await get('clusterrolebindings', 'system:kube-dns');
    assert.equal((b.roleRef as { name: string }).name, 'system:kube-dns');
    assert.deepEqual(b.subjects, [bob, { kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' }]);
  });
});
