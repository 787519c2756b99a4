import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { policyPrinters } from './policy.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const printers = policyPrinters();

describe('policy printers', () => {
  it('pod disruption budgets print int-or-string bounds, N/A when unset (TestPrintPodDisruptionBudget)', () => {
    const pdb = printers.PodDisruptionBudget;
    assert.deepEqual(
      pdb.columns.map((c) => c.name),
      ['Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'],
    );
    assert.deepEqual(pdb.rows({ metadata: { name: 'pdb1' }, spec: { minAvailable: 22 }, status: { disruptionsAllowed: 5 } }, NOW)[0], [
      'pdb1',
      '22',
      'N/A',
      5,
      '<unknown>',
    ]);
    assert.deepEqual(pdb.rows({ metadata: { name: 'pdb2' }, spec: { maxUnavailable: '11%' }, status: {} }, NOW)[0], ['pdb2', 'N/A', '11%', 0, '<unknown>']);
  });

  it('pod security policies print as 1.24 did (no age)', () => {
    const psp = printers.PodSecurityPolicy;
    assert.deepEqual(
      psp.columns.map((c) => c.name),
      ['Name', 'Priv', 'Caps', 'SELinux', 'RunAsUser', 'FsGroup', 'SupGroup', 'ReadOnlyRootFs', 'Volumes'],
    );
    const obj = {
      metadata: { name: 'restricted' },
      spec: {
        privileged: false,
        allowedCapabilities: ['NET_ADMIN', 'SYS_TIME'],
        seLinux: { rule: 'RunAsAny' },
        runAsUser: { rule: 'MustRunAsNonRoot' },
        fsGroup: { rule: 'MustRunAs' },
        supplementalGroups: { rule: 'RunAsAny' },
        readOnlyRootFilesystem: true,
        volumes: ['configMap', 'secret'],
      },
    };
    assert.deepEqual(psp.rows(obj, NOW)[0], [
      'restricted',
      'false',
      'NET_ADMIN,SYS_TIME',
      'RunAsAny',
      'MustRunAsNonRoot',
      'MustRunAs',
      'RunAsAny',
      true,
      'configMap,secret',
    ]);
  });
});
