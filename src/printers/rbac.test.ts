import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rbacPrinters } from './rbac.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const printers = rbacPrinters();

describe('rbac.authorization printers', () => {
  it('role bindings print the role and, wide, the subjects by kind (TestPrintRoleBinding)', () => {
    const rb = printers.RoleBinding;
    assert.deepEqual(
      rb.columns.map((c) => `${c.name}${c.priority ? '*' : ''}`),
      ['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*'],
    );
    assert.equal(rb.columns[3].description, 'Users in the roleBinding');
    const obj = {
      metadata: { name: 'binding1' },
      subjects: [
        { kind: 'User', name: 'system:kube-controller-manager' },
        { kind: 'Group', name: 'system:masters' },
        { kind: 'ServiceAccount', namespace: 'kube-system', name: 'default' },
        { kind: 'User', name: 'alice' },
      ],
      roleRef: { kind: 'Role', name: 'extension-apiserver-authentication-reader' },
    };
    assert.deepEqual(rb.rows(obj, NOW)[0], [
      'binding1',
      'Role/extension-apiserver-authentication-reader',
      '<unknown>',
      'system:kube-controller-manager, alice',
      'system:masters',
      'kube-system/default',
    ]);
  });

  it('cluster role bindings describe their own subjects', () => {
    const crb = printers.ClusterRoleBinding;
    assert.equal(crb.columns[4].description, 'Groups in the clusterRoleBinding');
    assert.deepEqual(crb.rows({ metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'admin' } }, NOW)[0], [
      'b',
      'ClusterRole/admin',
      '<unknown>',
      '',
      '',
      '',
    ]);
  });

  it('leaves roles and cluster roles to the default table', () => {
    assert.equal(printers.Role, undefined);
    assert.equal(printers.ClusterRole, undefined);
  });
});
