import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { Code } from '../../framework/status.js';
import type { PersistentVolumeClaim, Pod } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';
import { ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED } from '../node-volume-limits/limits.js';
import { maxVolLimitFromEnv, NonCSILimits } from '../node-volume-limits/non-csi.js';
import * as f from '../node-volume-limits/testing.js';
import { gcePDFilter, NAME } from './gce-pd-limits.js';

const F = 'GCE';
const KEY = 'attachable-volumes-gce-pd';

test('GCEPDLimits.filter (upstream TestGCEPDLimits)', () => {
  // Upstream's fixtures are EBS volumes and a class without provisioner: nothing counts, all fit.
  const pl = new NonCSILimits(NAME, gcePDFilter(ORCH_NAMES), f.fakeCluster(F, ''), 'prefix', -1);
  const cases: [string, Pod, Pod[], number][] = [
    ["fits when node capacity >= new pod's GCE volumes", f.oneVolPod, [f.twoVolPod, f.oneVolPod], 4],
    ["fit when node capacity < new pod's GCE volumes", f.twoVolPod, [f.oneVolPod], 2],
    ["new pod's count ignores non-GCE volumes", f.splitVolsPod, [f.twoVolPod], 3],
    ["existing pods' counts ignore non-GCE volumes", f.twoVolPod, [f.splitVolsPod, f.nonApplicablePod, f.emptyPod], 3],
    ["new pod's count considers PVCs backed by GCE volumes", f.onePVCPod(F), [f.splitVolsPod, f.nonApplicablePod, f.emptyPod], 3],
    ["new pod's count ignores PVCs not backed by GCE volumes", f.splitPVCPod(F), [f.splitVolsPod, f.oneVolPod], 3],
    ["existing pods' counts considers PVCs backed by GCE volumes", f.twoVolPod, [f.oneVolPod, f.onePVCPod(F)], 3],
    ['already-mounted EBS volumes are always ok to allow', f.twoVolPod, [f.oneVolPod, f.twoVolPod, f.onePVCPod(F)], 4],
    ['the same GCE volumes are not counted multiple times', f.splitVolsPod, [f.oneVolPod, f.oneVolPod, f.onePVCPod(F)], 3],
    ['pod with missing PVC is counted towards the PV limit (2)', f.onePVCPod(F), [f.oneVolPod, f.deletedPVCPod], 2],
    ['pod with missing PVC is counted towards the PV limit (3)', f.onePVCPod(F), [f.oneVolPod, f.deletedPVCPod], 3],
    ['pod with missing two PVCs is counted towards the PV limit twice', f.onePVCPod(F), [f.oneVolPod, f.twoDeletedPVCPod], 3],
    ['pod with missing PV is counted towards the PV limit (2)', f.onePVCPod(F), [f.oneVolPod, f.deletedPVPod], 2],
    ['pod with missing PV is counted towards the PV limit (3)', f.onePVCPod(F), [f.oneVolPod, f.deletedPVPod], 3],
    ['two pods missing the same PV are counted towards the PV limit only once', f.deletedPVPod2, [f.oneVolPod, f.deletedPVPod], 2],
    ['two pods missing different PVs are counted towards the PV limit twice', f.anotherDeletedPVPod, [f.oneVolPod, f.deletedPVPod], 2],
    ['pod with unbound PVC is counted towards the PV limit (2)', f.onePVCPod(F), [f.oneVolPod, f.unboundPVCPod], 2],
    ['pod with unbound PVC is counted towards the PV limit (3)', f.onePVCPod(F), [f.oneVolPod, f.unboundPVCPod], 3],
    ['the same unbound PVC in multiple pods is counted towards the PV limit only once', f.unboundPVCPod2, [f.oneVolPod, f.unboundPVCPod], 2],
    ['two different unbound PVCs are counted towards the PV limit as two volumes', f.anotherUnboundPVCPod, [f.oneVolPod, f.unboundPVCPod], 2],
  ];
  for (const [name, pod, existing, max] of cases) {
    assert.equal(pl.filter(new CycleState(), pod, f.nodeWithLimit(KEY, max, existing)).code, Code.Success, name);
  }
});

test('GCEPDLimits ephemeral volumes (upstream TestEphemeralLimits)', () => {
  const pod: Pod = {
    metadata: { name: 'abc', namespace: 'test', uid: '12345' },
    spec: { containers: [], volumes: [{ name: 'xyz', ephemeral: {} }] },
  };
  const ephemeralClaim: PersistentVolumeClaim = {
    metadata: {
      name: 'abc-xyz',
      namespace: 'test',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'abc', uid: '12345', controller: true }],
    },
    spec: { volumeName: 'missing', storageClassName: F },
  };
  const conflicting: PersistentVolumeClaim = { ...ephemeralClaim, metadata: { ...ephemeralClaim.metadata, ownerReferences: undefined } };
  const cases: [string, PersistentVolumeClaim[], number, Code, string[]][] = [
    ['volume missing', [], 0, Code.Error, ['looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found']],
    ['volume not owned', [conflicting], 0, Code.Error, ['PVC test/abc-xyz was not created for pod test/abc (pod is not owner)']],
    ['volume unbound, allowed', [ephemeralClaim], 1, Code.Success, []],
    ['volume unbound, exceeds limit', [ephemeralClaim], 0, Code.Unschedulable, [ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED]],
  ];
  for (const [name, extra, max, code, reasons] of cases) {
    const pl = new NonCSILimits(NAME, gcePDFilter(ORCH_NAMES), f.fakeCluster(F, 'orch.io/gce-pd', extra), 'prefix', -1);
    const s = pl.filter(new CycleState(), pod, f.nodeWithLimit(KEY, max, []));
    assert.equal(s.code, code, name);
    assert.deepEqual(s.reasons, reasons, name);
  }
});

test('KUBE_MAX_PD_VOLS parsing (upstream TestGetMaxVols)', () => {
  assert.equal(maxVolLimitFromEnv('invalid'), -1);
  assert.equal(maxVolLimitFromEnv('-2'), -1);
  assert.equal(maxVolLimitFromEnv('40'), 40);
  assert.equal(maxVolLimitFromEnv(undefined), -1);
});
