import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Brand, KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import type { PolicyRule } from '../../machinery/authorization.js';
import type { Obj } from '../../machinery/object.js';
import { bootstrapPolicy } from './bootstrap-policy.js';
import { nodeRules } from './node-rules.js';
import { validateBinding, validateClusterRole, validateRole } from './rbac-validation.js';

const names = (objs: Obj[]) => objs.map((o) => `${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`);
const byName = (objs: Obj[], name: string, namespace?: string) => {
  const found = objs.find((o) => o.metadata?.name === name && o.metadata?.namespace === namespace);
  assert.ok(found, `${namespace ?? ''}/${name} is in the policy`);
  return found;
};

/** upstream-facts §2.3, in upstream's (compat) spelling. */
const UPSTREAM_CLUSTER_ROLES = [
  'cluster-admin',
  'admin',
  'edit',
  'view',
  'system:aggregate-to-admin',
  'system:aggregate-to-edit',
  'system:aggregate-to-view',
  'system:discovery',
  'system:public-info-viewer',
  'system:basic-user',
  'system:monitoring',
  'system:auth-delegator',
  'system:kube-scheduler',
  'system:volume-scheduler',
  'system:kube-controller-manager',
  'system:node',
  'system:node-bootstrapper',
  'system:node-problem-detector',
  'system:node-proxier',
  'system:kube-dns',
  'system:kube-aggregator',
  'system:heapster',
  'system:kubelet-api-admin',
  'system:persistent-volume-provisioner',
  'system:service-account-issuer-discovery',
  'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
  'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
  'system:certificates.k8s.io:kube-apiserver-client-approver',
  'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver',
  'system:certificates.k8s.io:kubelet-serving-approver',
  'system:certificates.k8s.io:legacy-unknown-approver',
];

const CONTROLLERS = [
  'attachdetach-controller',
  'certificate-controller',
  'clusterrole-aggregation-controller',
  'cronjob-controller',
  'daemon-set-controller',
  'deployment-controller',
  'disruption-controller',
  'endpoint-controller',
  'endpointslice-controller',
  'endpointslicemirroring-controller',
  'ephemeral-volume-controller',
  'expand-controller',
  'generic-garbage-collector',
  'horizontal-pod-autoscaler',
  'job-controller',
  'namespace-controller',
  'node-controller',
  'persistent-volume-binder',
  'pod-garbage-collector',
  'pv-protection-controller',
  'pvc-protection-controller',
  'replicaset-controller',
  'replication-controller',
  'resourcequota-controller',
  'root-ca-cert-publisher',
  'route-controller',
  'service-account-controller',
  'service-controller',
  'statefulset-controller',
  'ttl-after-finished-controller',
  'ttl-controller',
];

const allObjects = (brand: Brand) => {
  const p = bootstrapPolicy(brand);
  return [...p.clusterRoles, ...p.clusterRoleBindings, ...p.roles, ...p.roleBindings];
};

describe('bootstrap policy in compat mode: upstream 1.25 names and spellings', () => {
  const p = bootstrapPolicy(KUBERNETES_BRAND);

  test('every default ClusterRole, and one controller role per controller, exactly once', () => {
    const expected = [...UPSTREAM_CLUSTER_ROLES, ...CONTROLLERS.map((c) => `system:controller:${c}`)].sort();
    assert.deepEqual(names(p.clusterRoles).sort(), expected);
  });

  test('ClusterRoleBindings: the defaults with their subjects; each controller bound to its service account in kube-system', () => {
    const subjects = (name: string) => byName(p.clusterRoleBindings, name).subjects;
    const group = (name: string) => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name });
    const user = (name: string) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name });
    assert.deepEqual(subjects('cluster-admin'), [group('system:masters')]);
    assert.deepEqual(subjects('system:basic-user'), [group('system:authenticated')]);
    assert.deepEqual(subjects('system:discovery'), [group('system:authenticated')]);
    assert.deepEqual(subjects('system:public-info-viewer'), [group('system:authenticated'), group('system:unauthenticated')]);
    assert.deepEqual(subjects('system:kube-controller-manager'), [user('system:kube-controller-manager')]);
    assert.deepEqual(subjects('system:kube-scheduler'), [user('system:kube-scheduler')]);
    assert.deepEqual(subjects('system:volume-scheduler'), [user('system:kube-scheduler')]);
    assert.deepEqual(subjects('system:kube-dns'), [{ kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' }]);
    assert.deepEqual(subjects('system:monitoring'), [group('system:monitoring')]);
    assert.deepEqual(subjects('system:node-proxier'), [user('system:kube-proxy')]);
    assert.deepEqual(subjects('system:service-account-issuer-discovery'), [group('system:serviceaccounts')]);
    assert.equal(byName(p.clusterRoleBindings, 'system:node').subjects, undefined, 'system:node is bound to nobody');
    for (const c of CONTROLLERS) {
      const b = byName(p.clusterRoleBindings, `system:controller:${c}`);
      assert.deepEqual(b.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `system:controller:${c}` });
      assert.deepEqual(b.subjects, [{ kind: 'ServiceAccount', name: c, namespace: 'kube-system' }]);
    }
    assert.equal(p.clusterRoleBindings.length, 12 + CONTROLLERS.length);
  });

  test('namespaced Roles and RoleBindings in kube-system and kube-public', () => {
    assert.deepEqual(names(p.roles).sort(), [
      'kube-public/system:controller:bootstrap-signer',
      'kube-system/extension-apiserver-authentication-reader',
      'kube-system/system::leader-locking-kube-controller-manager',
      'kube-system/system::leader-locking-kube-scheduler',
      'kube-system/system:controller:bootstrap-signer',
      'kube-system/system:controller:cloud-provider',
      'kube-system/system:controller:token-cleaner',
    ]);
    const scheduler = byName(p.roleBindings, 'system::leader-locking-kube-scheduler', 'kube-system');
    assert.deepEqual(scheduler.subjects, [
      { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'system:kube-scheduler' },
      { kind: 'ServiceAccount', name: 'kube-scheduler', namespace: 'kube-system' },
    ]);
    const reader = byName(p.roleBindings, 'system::extension-apiserver-authentication-reader', 'kube-system');
    assert.deepEqual(reader.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' });
    const publicSigner = byName(p.roleBindings, 'system:controller:bootstrap-signer', 'kube-public');
    assert.deepEqual(publicSigner.subjects, [{ kind: 'ServiceAccount', name: 'bootstrap-signer', namespace: 'kube-system' }]);
    assert.deepEqual((byName(p.roles, 'system:controller:bootstrap-signer', 'kube-public').rules as PolicyRule[])[1], {
      verbs: ['update'],
      apiGroups: [''],
      resources: ['configmaps'],
      resourceNames: ['cluster-info'],
    });
  });

  test("every object carries upstream's label and autoupdate annotation", () => {
    for (const o of allObjects(KUBERNETES_BRAND)) {
      assert.equal(o.metadata?.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults', o.metadata?.name);
      assert.deepEqual(o.metadata?.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' }, o.metadata?.name);
      assert.equal(o.apiVersion, 'rbac.authorization.k8s.io/v1');
    }
  });

  test('admin, edit and view are aggregated (rules null) from the aggregate-to roles; edit joins admin, view joins edit', () => {
    const selector = (name: string) => byName(p.clusterRoles, name).aggregationRule;
    for (const r of ['admin', 'edit', 'view']) {
      assert.equal(byName(p.clusterRoles, r).rules, null);
      assert.deepEqual(selector(r), { clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${r}`]: 'true' } }] });
      assert.equal(byName(p.clusterRoles, `system:aggregate-to-${r}`).metadata?.labels?.[`rbac.authorization.k8s.io/aggregate-to-${r}`], 'true');
    }
    assert.equal(byName(p.clusterRoles, 'edit').metadata?.labels?.['rbac.authorization.k8s.io/aggregate-to-admin'], 'true');
    assert.equal(byName(p.clusterRoles, 'view').metadata?.labels?.['rbac.authorization.k8s.io/aggregate-to-edit'], 'true');
    const viewRules = JSON.stringify(byName(p.clusterRoles, 'system:aggregate-to-view').rules);
    assert.ok(!viewRules.includes('secrets'), 'view never reads secrets');
  });

  test("rules as upstream's testdata: sorted lists; the scheduler's lease named kube-scheduler; system:node is NodeRules", () => {
    for (const o of [...p.clusterRoles, ...p.roles]) {
      for (const r of (o.rules as PolicyRule[] | null) ?? []) {
        for (const list of [r.verbs, r.apiGroups, r.resources, r.resourceNames, r.nonResourceURLs])
          if (list) assert.deepEqual(list, [...list].sort(), o.metadata?.name);
      }
    }
    assert.ok(
      (byName(p.clusterRoles, 'system:kube-scheduler').rules as PolicyRule[]).some(
        (r) => r.resources?.[0] === 'leases' && r.resourceNames?.[0] === 'kube-scheduler' && r.apiGroups?.[0] === 'coordination.k8s.io',
      ),
    );
    assert.deepEqual(byName(p.clusterRoles, 'system:node').rules, nodeRules(KUBERNETES_BRAND));
    assert.deepEqual(byName(p.clusterRoles, 'cluster-admin').rules, [
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ]);
    assert.deepEqual(byName(p.clusterRoles, 'system:certificates.k8s.io:kubelet-serving-approver').rules, [
      { verbs: ['approve'], apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['kubernetes.io/kubelet-serving'] },
    ]);
  });

  test('every object passes the API validation of its kind', () => {
    for (const o of p.clusterRoles) assert.deepEqual(validateClusterRole(o), [], o.metadata?.name);
    for (const o of p.roles) assert.deepEqual(validateRole(o), [], o.metadata?.name);
    for (const o of p.clusterRoleBindings) assert.deepEqual(validateBinding(o, false, KUBERNETES_BRAND), [], o.metadata?.name);
    for (const o of p.roleBindings) assert.deepEqual(validateBinding(o, true, KUBERNETES_BRAND), [], o.metadata?.name);
  });
});

describe('bootstrap policy in orch mode: the brand spells groups, labels and component names', () => {
  const p = bootstrapPolicy(ORCH_BRAND);

  test('no Kubernetes-branded group, label or annotation anywhere', () => {
    const text = JSON.stringify(allObjects(ORCH_BRAND));
    assert.ok(!text.includes('k8s.io'), 'no *.k8s.io');
    assert.ok(!text.includes('kubernetes.io'), 'no kubernetes.io');
    assert.ok(!text.includes('kube-system') && !text.includes('kube-public'));
    for (const o of allObjects(ORCH_BRAND)) {
      assert.equal(o.metadata?.labels?.['orch.io/bootstrapping'], 'rbac-defaults');
      assert.deepEqual(o.metadata?.annotations, { 'rbac.authorization.orch.io/autoupdate': 'true' });
    }
  });

  test("orch's components are system:orch-scheduler and system:orch-controller-manager, locking orch-* names in orch-system", () => {
    const all = names(p.clusterRoles);
    assert.ok(all.includes('system:orch-scheduler') && all.includes('system:orch-controller-manager'));
    assert.ok(!all.includes('system:kube-scheduler'));
    assert.ok(all.includes('system:certificates.orch.io:kubelet-serving-approver'));
    assert.deepEqual(byName(p.clusterRoleBindings, 'system:volume-scheduler').subjects, [
      { kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'system:orch-scheduler' },
    ]);
    assert.ok(
      (byName(p.clusterRoles, 'system:orch-controller-manager').rules as PolicyRule[]).some(
        (r) => r.apiGroups?.[0] === 'coordination.orch.io' && r.resourceNames?.[0] === 'orch-controller-manager',
      ),
    );
    assert.ok(names(p.roles).includes('orch-system/system::leader-locking-orch-scheduler'));
    assert.ok(names(p.roles).includes('orch-public/system:controller:bootstrap-signer'));
    assert.deepEqual(byName(p.clusterRoles, 'admin').aggregationRule, {
      clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.orch.io/aggregate-to-admin': 'true' } }],
    });
    assert.deepEqual(byName(p.clusterRoleBindings, 'system:controller:job-controller').subjects, [
      { kind: 'ServiceAccount', name: 'job-controller', namespace: 'orch-system' },
    ]);
  });

  test('the same objects as compat mode, name for name', () => {
    assert.equal(p.clusterRoles.length, bootstrapPolicy(KUBERNETES_BRAND).clusterRoles.length);
    assert.equal(p.clusterRoleBindings.length, bootstrapPolicy(KUBERNETES_BRAND).clusterRoleBindings.length);
    for (const o of p.clusterRoles) assert.deepEqual(validateClusterRole(o), [], o.metadata?.name);
    for (const o of p.clusterRoleBindings) assert.deepEqual(validateBinding(o, false, ORCH_BRAND), [], o.metadata?.name);
  });
});
