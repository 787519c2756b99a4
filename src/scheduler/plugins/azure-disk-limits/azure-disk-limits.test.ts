import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { PodInfo } from '../../framework/pod-info.js';
import { Code } from '../../framework/status.js';
import type { Pod, Volume } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';
import { NonCSILimits } from '../node-volume-limits/non-csi.js';
import * as f from '../node-volume-limits/testing.js';
import { azureDiskFilter, DEFAULT_MAX_AZURE_DISK_VOLUMES, NAME } from './azure-disk-limits.js';

const F = 'AzureDisk';
const KEY = 'attachable-volumes-azure-disk';

test('AzureDiskLimits.filter (upstream TestAzureDiskLimits)', () => {
  // Upstream runs the EBS fixtures through the Azure filter: none of them are Azure disks.
  const pl = new NonCSILimits(NAME, azureDiskFilter(ORCH_NAMES), f.fakeCluster(F, ''), 'prefix', -1);
  const cases: [string, Pod, Pod[], number][] = [
    ["fits when node capacity >= new pod's AzureDisk volumes", f.oneVolPod, [f.twoVolPod, f.oneVolPod], 4],
    ["fit when node capacity < new pod's AzureDisk volumes", f.twoVolPod, [f.oneVolPod], 2],
    ["new pod's count ignores non-AzureDisk volumes", f.splitVolsPod, [f.twoVolPod], 3],
    ["existing pods' counts ignore non-AzureDisk volumes", f.twoVolPod, [f.splitVolsPod, f.nonApplicablePod, f.emptyPod], 3],
    ["new pod's count considers PVCs backed by AzureDisk volumes", f.onePVCPod(F), [f.splitVolsPod, f.nonApplicablePod, f.emptyPod], 3],
    ["new pod's count ignores PVCs not backed by AzureDisk volumes", f.splitPVCPod(F), [f.splitVolsPod, f.oneVolPod], 3],
    ["existing pods' counts considers PVCs backed by AzureDisk volumes", f.twoVolPod, [f.oneVolPod, f.onePVCPod(F)], 3],
    ['already-mounted AzureDisk volumes are always ok to allow', f.twoVolPod, [f.oneVolPod, f.twoVolPod, f.onePVCPod(F)], 4],
    ['the same AzureDisk volumes are not counted multiple times', f.splitVolsPod, [f.oneVolPod, f.oneVolPod, f.onePVCPod(F)], 3],
    ['pod with missing PVC is counted towards the PV limit', f.onePVCPod(F), [f.oneVolPod, f.deletedPVCPod], 2],
    ['pod with missing two PVCs is counted towards the PV limit twice', f.onePVCPod(F), [f.oneVolPod, f.twoDeletedPVCPod], 3],
    ['pod with missing PV is counted towards the PV limit', f.onePVCPod(F), [f.oneVolPod, f.deletedPVPod], 2],
    ['two pods missing the same PV are counted towards the PV limit only once', f.deletedPVPod2, [f.oneVolPod, f.deletedPVPod], 2],
    ['two pods missing different PVs are counted towards the PV limit twice', f.anotherDeletedPVPod, [f.oneVolPod, f.deletedPVPod], 2],
    ['pod with unbound PVC is counted towards the PV limit', f.onePVCPod(F), [f.oneVolPod, f.unboundPVCPod], 2],
    ['the same unbound PVC in multiple pods is counted towards the PV limit only once', f.unboundPVCPod2, [f.oneVolPod, f.unboundPVCPod], 2],
    ['two different unbound PVCs are counted towards the PV limit as two volumes', f.anotherUnboundPVCPod, [f.oneVolPod, f.unboundPVCPod], 2],
  ];
  for (const [name, pod, existing, max] of cases) {
    assert.equal(pl.filter(new CycleState(), pod, f.nodeWithLimit(KEY, max, existing)).code, Code.Success, name);
  }
});

test('AzureDiskLimits counts Azure disks against the default of 16', () => {
  const pl = new NonCSILimits(NAME, azureDiskFilter(ORCH_NAMES), f.fakeCluster(F, 'orch.io/azure-disk'), 'prefix', -1);
  const disk = (n: string): Volume => ({ name: n, azureDisk: { diskName: n } });
  const ni = new NodeInfo({ metadata: { name: 'n' } });
  ni.addPod(new PodInfo(f.podWithVolumes(...Array.from({ length: 15 }, (_, i) => disk(`d${i}`)))));
  assert.equal(DEFAULT_MAX_AZURE_DISK_VOLUMES, 16);
  assert.equal(pl.filter(new CycleState(), f.podWithVolumes(disk('x')), ni).code, Code.Success);
  assert.equal(pl.filter(new CycleState(), f.podWithVolumes(disk('x'), disk('y')), ni).code, Code.Unschedulable);
  assert.equal(pl.filter(new CycleState(), f.podWithVolumes(disk('d0'), disk('y')), ni).code, Code.Success, 'an attached disk is free');
});
