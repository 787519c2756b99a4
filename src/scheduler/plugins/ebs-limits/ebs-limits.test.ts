import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { Code } from '../../framework/status.js';
import type { Node, Pod } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';
import { ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED } from '../node-volume-limits/limits.js';
import { NonCSILimits } from '../node-volume-limits/non-csi.js';
import * as f from '../node-volume-limits/testing.js';
import { DEFAULT_MAX_EBS_NITRO_VOLUMES, DEFAULT_MAX_EBS_VOLUMES, ebsFilter, NAME } from './ebs-limits.js';

const F = 'EBS';
const KEY = 'attachable-volumes-aws-ebs';

test('EBSLimits.filter (upstream TestEBSLimits)', () => {
  const unboundPVCWithInvalidSCPod = f.pvcPod('unboundPVCWithInvalidSCPod');
  const unboundPVCWithDefaultSCPod = f.pvcPod('unboundPVCWithDefaultSCPod');
  const pl = new NonCSILimits(NAME, ebsFilter(ORCH_NAMES), f.fakeCluster(F, 'orch.io/aws-ebs'), 'prefix', -1);
  const cases: [string, Pod, Pod[], number, boolean][] = [
    ["fits when node capacity >= new pod's EBS volumes", f.oneVolPod, [f.twoVolPod, f.oneVolPod], 4, true],
    ["doesn't fit when node capacity < new pod's EBS volumes", f.twoVolPod, [f.oneVolPod], 2, false],
    ["new pod's count ignores non-EBS volumes", f.splitVolsPod, [f.twoVolPod], 3, true],
    ["existing pods' counts ignore non-EBS volumes", f.twoVolPod, [f.splitVolsPod, f.nonApplicablePod, f.emptyPod], 3, true],
    ["new pod's count considers PVCs backed by EBS volumes", f.onePVCPod(F), [f.splitVolsPod, f.nonApplicablePod, f.emptyPod], 3, true],
    ["new pod's count ignores PVCs not backed by EBS volumes", f.splitPVCPod(F), [f.splitVolsPod, f.oneVolPod], 3, true],
    ["existing pods' counts considers PVCs backed by EBS volumes", f.twoVolPod, [f.oneVolPod, f.onePVCPod(F)], 3, false],
    ['already-mounted EBS volumes are always ok to allow', f.twoVolPod, [f.oneVolPod, f.twoVolPod, f.onePVCPod(F)], 4, true],
    ['the same EBS volumes are not counted multiple times', f.splitVolsPod, [f.oneVolPod, f.oneVolPod, f.onePVCPod(F)], 3, true],
    ['missing PVC is not counted towards the PV limit (1)', f.onePVCPod(F), [f.oneVolPod, f.deletedPVCPod], 1, false],
    ['missing PVC is not counted towards the PV limit (2)', f.onePVCPod(F), [f.oneVolPod, f.deletedPVCPod], 2, true],
    ['two missing PVCs are not counted towards the PV limit twice', f.onePVCPod(F), [f.oneVolPod, f.twoDeletedPVCPod], 2, true],
    ['unbound PVC with invalid SC is not counted towards the PV limit', unboundPVCWithInvalidSCPod, [f.oneVolPod], 1, true],
    ['unbound PVC from different provisioner is not counted towards the PV limit', unboundPVCWithDefaultSCPod, [f.oneVolPod], 1, true],
    ['pod with missing PV is counted towards the PV limit (2)', f.onePVCPod(F), [f.oneVolPod, f.deletedPVPod], 2, false],
    ['pod with missing PV is counted towards the PV limit (3)', f.onePVCPod(F), [f.oneVolPod, f.deletedPVPod], 3, true],
    ['two pods missing the same PV are counted towards the PV limit only once', f.deletedPVPod2, [f.oneVolPod, f.deletedPVPod], 2, true],
    ['two pods missing different PVs are counted towards the PV limit twice', f.anotherDeletedPVPod, [f.oneVolPod, f.deletedPVPod], 2, false],
    ['pod with unbound PVC is counted towards the PV limit (2)', f.onePVCPod(F), [f.oneVolPod, f.unboundPVCPod], 2, false],
    ['pod with unbound PVC is counted towards the PV limit (3)', f.onePVCPod(F), [f.oneVolPod, f.unboundPVCPod], 3, true],
    ['the same unbound PVC in multiple pods is counted towards the PV limit only once', f.unboundPVCPod2, [f.oneVolPod, f.unboundPVCPod], 2, true],
    ['two different unbound PVCs are counted towards the PV limit as two volumes', f.anotherUnboundPVCPod, [f.oneVolPod, f.unboundPVCPod], 2, false],
  ];
  for (const [name, pod, existing, max, fits] of cases) {
    const s = pl.filter(new CycleState(), pod, f.nodeWithLimit(KEY, max, existing));
    assert.equal(s.code, fits ? Code.Success : Code.Unschedulable, name);
    assert.deepEqual(s.reasons, fits ? [] : [ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED], name);
  }
});

test('EBSLimits default limits by instance type', () => {
  const filter = ebsFilter(ORCH_NAMES);
  const node = (t?: string): Node => ({ metadata: { name: 'n', labels: t ? { 'node.orch.io/instance-type': t } : {} } });
  assert.equal(filter.maxVolumes(node()), DEFAULT_MAX_EBS_VOLUMES);
  assert.equal(filter.maxVolumes(node('m5.large')), DEFAULT_MAX_EBS_NITRO_VOLUMES);
  assert.equal(filter.maxVolumes(node('t3.micro')), DEFAULT_MAX_EBS_NITRO_VOLUMES);
  assert.equal(filter.maxVolumes(node('m4.large')), DEFAULT_MAX_EBS_VOLUMES);
  // Without an allocatable override the default applies: 40 volumes do not fit, 39 do.
  const pl = new NonCSILimits(NAME, filter, f.fakeCluster(F, 'orch.io/aws-ebs'), 'prefix', -1);
  const ni = new NodeInfo({ metadata: { name: 'n' } });
  const vols = (n: number) => f.podWithVolumes(...Array.from({ length: n }, (_, i) => f.ebs(`v${i}`)));
  assert.equal(pl.filter(new CycleState(), vols(39), ni).code, Code.Success);
  assert.equal(pl.filter(new CycleState(), vols(40), ni).code, Code.Unschedulable);
  // KUBE_MAX_PD_VOLS overrides the default but not the allocatable.
  const env = new NonCSILimits(NAME, filter, f.fakeCluster(F, 'orch.io/aws-ebs'), 'prefix', 2);
  assert.equal(env.filter(new CycleState(), vols(3), ni).code, Code.Unschedulable);
  assert.equal(env.filter(new CycleState(), vols(3), f.nodeWithLimit(KEY, 3, [])).code, Code.Success);
});
