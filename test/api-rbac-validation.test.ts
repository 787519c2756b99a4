/**
 * rbac.authorization/v1 validation through HTTP, as upstream 1.25: rules need verbs (and groups
 * and resources, or non-resource URLs only in cluster roles), bindings refer to a Role or
 * ClusterRole of the RBAC group for good, subjects are ServiceAccounts, Users or Groups.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterClient, MERGE } from './helpers/cluster-client.js';
import { assertInvalidExactly, assertOk } from './helpers/invalid.js';

const NS = 'rbac-v';
const GROUP = 'rbac.authorization.orch.io';
const RBAC = `/apis/${GROUP}/v1`;

const call = clusterClient({}, NS);
/** A cluster that spells upstream's names (--kubernetes-compat). */
const compatCall = clusterClient({ kubernetesCompat: true });

describe('Role and ClusterRole', () => {
  it('need verbs, groups and resources in every resource rule', async () => {
    const r = await call('POST', `${RBAC}/namespaces/${NS}/roles`, {
      metadata: { name: 'r' },
      rules: [{ resources: ['pods'] }, { verbs: ['get'], apiGroups: [''] }],
    });
    assertInvalidExactly(r, 'Role', [
      ['rules[0].verbs', 'Required value: verbs must contain at least one value'],
      ['rules[0].apiGroups', 'Required value: resource rules must supply at least one api group'],
      ['rules[1].resources', 'Required value: resource rules must supply at least one resource'],
    ]);
    assertOk(
      await call('POST', `${RBAC}/namespaces/${NS}/roles`, { metadata: { name: 'ok' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }),
      201,
    );
  });

  it('allow non-resource URLs only in cluster roles, never mixed with resources', async () => {
    const ns = await call('POST', `${RBAC}/namespaces/${NS}/roles`, { metadata: { name: 'urls' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] });
    assertInvalidExactly(ns, 'Role', [['rules[0].nonResourceURLs', 'Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs']]);
    const mixed = await call('POST', `${RBAC}/clusterroles`, {
      metadata: { name: 'mixed' },
      rules: [{ verbs: ['get'], resources: ['pods'], nonResourceURLs: ['/x'] }],
    });
    assertInvalidExactly(mixed, 'ClusterRole', [
      ['rules[0].nonResourceURLs', 'Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs'],
    ]);
    assertOk(await call('POST', `${RBAC}/clusterroles`, { metadata: { name: 'health' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] }), 201);
  });

  it('need at least one aggregation selector when aggregating', async () => {
    const r = await call('POST', `${RBAC}/clusterroles`, { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [] } });
    assertInvalidExactly(r, 'ClusterRole', [
      ['aggregationRule.clusterRoleSelectors', 'Required value: at least one clusterRoleSelector required if aggregationRule is non-nil'],
    ]);
  });
});

describe('RoleBinding and ClusterRoleBinding', () => {
  it('default the reference and subject groups to the RBAC group', async () => {
    const b = assertOk(
      await call('POST', `${RBAC}/namespaces/${NS}/rolebindings`, {
        metadata: { name: 'b' },
        roleRef: { kind: 'Role', name: 'ok' },
        subjects: [
          { kind: 'User', name: 'alice' },
          { kind: 'ServiceAccount', name: 'default' },
        ],
      }),
      201,
    );
    assert.equal(b.roleRef.apiGroup, GROUP);
    assert.equal(b.subjects[0].apiGroup, GROUP);
    assert.equal(b.subjects[1].apiGroup, undefined);
    const k = assertOk(
      await compatCall('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
        metadata: { name: 'k' },
        roleRef: { kind: 'ClusterRole', name: 'view' },
      }),
      201,
    );
    assert.equal(k.roleRef.apiGroup, 'rbac.authorization.k8s.io');
  });

  it('check the reference and every subject', async () => {
    const r = await call('POST', `${RBAC}/clusterrolebindings`, {
      metadata: { name: 'bad' },
      roleRef: { apiGroup: 'example.com', kind: 'Role', name: 'a/b' },
      subjects: [
        { kind: 'ServiceAccount', name: 'Bad_Name', apiGroup: 'x' },
        { kind: 'Robot', name: 'r2' },
        { kind: 'Group', apiGroup: 'other' },
      ],
    });
    assertInvalidExactly(r, 'ClusterRoleBinding', [
      ['roleRef.apiGroup', `Unsupported value: "example.com": supported values: "${GROUP}"`],
      ['roleRef.kind', 'Unsupported value: "Role": supported values: "ClusterRole"'],
      ['roleRef.name', `Invalid value: "a/b": may not contain '/'`],
      [
        'subjects[0].name',
        `Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
      ['subjects[0].apiGroup', 'Unsupported value: "x": supported values: ""'],
      ['subjects[0].namespace', 'Required value'],
      ['subjects[1].kind', 'Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"'],
      ['subjects[2].name', 'Required value'],
      ['subjects[2].apiGroup', `Unsupported value: "other": supported values: "${GROUP}"`],
    ]);
  });

  it('never change their role reference', async () => {
    assertOk(await call('POST', `${RBAC}/clusterrolebindings`, { metadata: { name: 'fixed' }, roleRef: { kind: 'ClusterRole', name: 'view' } }), 201);
    const r = await call('PATCH', `${RBAC}/clusterrolebindings/fixed`, { roleRef: { name: 'edit' } }, MERGE);
    assertInvalidExactly(r, 'ClusterRoleBinding', [
      ['roleRef', `Invalid value: rbac.RoleRef{APIGroup:"${GROUP}", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef`],
    ]);
    assertOk(await call('PATCH', `${RBAC}/clusterrolebindings/fixed`, { subjects: [{ kind: 'Group', name: 'devs' }] }, MERGE));
  });
});
