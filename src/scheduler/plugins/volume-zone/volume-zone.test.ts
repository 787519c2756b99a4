import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../framework/clock.js';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { Code } from '../../framework/status.js';
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';
import { SimulatedCluster } from '../../simulator/cluster.js';
import { ERR_REASON_CONFLICT, labelZonesToSet, VolumeZone } from './volume-zone.js';

const N = ORCH_NAMES;
const BETA_ZONE = N.legacyZoneLabel;
const BETA_REGION = N.legacyRegionLabel;
const ZONE = N.zoneLabel;
const REGION = N.regionLabel;

const pv = (name: string, labels: Record<string, string>): PersistentVolume => ({ metadata: { name, labels }, spec: {} });
const pvc = (name: string, volumeName?: string, storageClassName?: string): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'default' },
  spec: { volumeName, storageClassName },
});
const podWith = (claim?: string): Pod => ({
  metadata: { name: 'pod_1', namespace: 'default' },
  spec: { containers: [], volumes: claim === undefined ? undefined : [{ name: 'v', persistentVolumeClaim: { claimName: claim } }] },
});
const node = (labels?: Record<string, string>): Node => ({ metadata: { name: 'host1', labels } });

function plugin(pvs: PersistentVolume[], pvcs: PersistentVolumeClaim[], scs: StorageClass[] = []): VolumeZone {
  const c = new SimulatedCluster(new FakeClock());
  for (const o of pvs) c.addObject(c.persistentVolumes, o, false);
  for (const o of pvcs) c.addObject(c.persistentVolumeClaims, o, true);
  for (const o of scs) c.addObject(c.storageClasses, o, false);
  return new VolumeZone(c, N);
}

type Case = [string, Pod, Node, Code, string[]];
function run(pl: VolumeZone, cases: Case[]): void {
  for (const [name, p, n, code, reasons] of cases) {
    const s = pl.filter(new CycleState(), p, new NodeInfo(n));
    assert.equal(s.code, code, name);
    assert.deepEqual(s.reasons, reasons, name);
  }
}
const ok = (name: string, p: Pod, n: Node): Case => [name, p, n, Code.Success, []];
const conflict = (name: string, p: Pod, n: Node): Case => [name, p, n, Code.UnschedulableAndUnresolvable, [ERR_REASON_CONFLICT]];

test('VolumeZone single zone', () => {
  const pl = plugin(
    [
      pv('Vol_1', { [BETA_ZONE]: 'us-west1-a' }),
      pv('Vol_2', { [BETA_REGION]: 'us-west1', uselessLabel: 'none' }),
      pv('Vol_3', { [BETA_REGION]: 'us-west1' }),
      pv('Vol_Stable_1', { [ZONE]: 'us-west1-a' }),
      pv('Vol_Stable_2', { [REGION]: 'us-west1', uselessLabel: 'none' }),
      pv('Vol_Stable_3', { [ZONE]: 'us-west1-a', [REGION]: 'us-west1-a' }),
    ],
    [
      pvc('PVC_1', 'Vol_1'),
      pvc('PVC_2', 'Vol_2'),
      pvc('PVC_3', 'Vol_3'),
      pvc('PVC_4', 'Vol_not_exist'),
      pvc('PVC_Stable_1', 'Vol_Stable_1'),
      pvc('PVC_Stable_2', 'Vol_Stable_2'),
      pvc('PVC_Stable_3', 'Vol_Stable_3'),
    ],
  );
  run(pl, [
    ok('pod without volume', podWith(), node({ [BETA_ZONE]: 'us-west1-a' })),
    ok('node without labels', podWith('PVC_1'), node()),
    ok('beta zone label matched', podWith('PVC_1'), node({ [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' })),
    ok('beta region label matched', podWith('PVC_2'), node({ [BETA_REGION]: 'us-west1', uselessLabel: 'none' })),
    conflict("beta region label doesn't match", podWith('PVC_2'), node({ [BETA_REGION]: 'no_us-west1', uselessLabel: 'none' })),
    conflict("beta zone label doesn't match", podWith('PVC_1'), node({ [BETA_ZONE]: 'no_us-west1-a', uselessLabel: 'none' })),
    ok('zone label matched', podWith('PVC_Stable_1'), node({ [ZONE]: 'us-west1-a', uselessLabel: 'none' })),
    ok('region label matched', podWith('PVC_Stable_2'), node({ [REGION]: 'us-west1', uselessLabel: 'none' })),
    conflict("region label doesn't match", podWith('PVC_Stable_2'), node({ [REGION]: 'no_us-west1', uselessLabel: 'none' })),
    conflict("zone label doesn't match", podWith('PVC_Stable_1'), node({ [ZONE]: 'no_us-west1-a', uselessLabel: 'none' })),
    conflict('pv with zone and region, node with only zone', podWith('PVC_Stable_3'), node({ [ZONE]: 'us-west1-a' })),
    conflict('pv with zone,node with beta zone', podWith('PVC_Stable_1'), node({ [BETA_ZONE]: 'us-west1-a' })),
    // 1.21 compares keys as written (the beta/GA translation came later).
    conflict('pv with beta label,node with ga label', podWith('PVC_1'), node({ [ZONE]: 'us-west1-a' })),
    ['PV not found', podWith('PVC_4'), node({ [ZONE]: 'us-west1-a' }), Code.UnschedulableAndUnresolvable, ['persistentvolume "Vol_not_exist" not found']],
    ['PVC not found', podWith('PVC_9'), node({ [ZONE]: 'us-west1-a' }), Code.UnschedulableAndUnresolvable, ['persistentvolumeclaim "PVC_9" not found']],
  ]);
});

test('VolumeZone multi zone', () => {
  const pl = plugin(
    [
      pv('Vol_1', { [BETA_ZONE]: 'us-west1-a' }),
      pv('Vol_2', { [BETA_ZONE]: 'us-west1-b', uselessLabel: 'none' }),
      pv('Vol_3', { [BETA_ZONE]: 'us-west1-c__us-west1-a' }),
      pv('Vol_Stable_1', { [ZONE]: 'us-west1-a' }),
      pv('Vol_Stable_2', { [ZONE]: 'us-west1-c__us-west1-a' }),
    ],
    [pvc('PVC_1', 'Vol_1'), pvc('PVC_2', 'Vol_2'), pvc('PVC_3', 'Vol_3'), pvc('PVC_Stable_1', 'Vol_Stable_1'), pvc('PVC_Stable_2', 'Vol_Stable_2')],
  );
  run(pl, [
    ok('node without labels', podWith('PVC_3'), node()),
    ok('beta zone label matched', podWith('PVC_3'), node({ [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' })),
    conflict("beta zone label doesn't match", podWith('PVC_1'), node({ [BETA_ZONE]: 'us-west1-b', uselessLabel: 'none' })),
    ok('zone label matched', podWith('PVC_Stable_2'), node({ [ZONE]: 'us-west1-a', uselessLabel: 'none' })),
    conflict("zone label doesn't match", podWith('PVC_Stable_1'), node({ [ZONE]: 'us-west1-b', uselessLabel: 'none' })),
  ]);
});

test('VolumeZone with binding', () => {
  const pl = plugin(
    [pv('Vol_1', { [BETA_ZONE]: 'us-west1-a' })],
    [
      pvc('PVC_1', 'Vol_1'),
      pvc('PVC_NoSC', undefined, 'Class_0'),
      pvc('PVC_EmptySC'),
      pvc('PVC_WaitSC', undefined, 'Class_Wait'),
      pvc('PVC_ImmediateSC', undefined, 'Class_Immediate'),
    ],
    [
      { metadata: { name: 'Class_Immediate' }, provisioner: 'p', volumeBindingMode: 'Immediate' },
      { metadata: { name: 'Class_Wait' }, provisioner: 'p', volumeBindingMode: 'WaitForFirstConsumer' },
    ],
  );
  const n = node({ [BETA_ZONE]: 'us-west1-a', uselessLabel: 'none' });
  const U = Code.UnschedulableAndUnresolvable;
  run(pl, [
    ok('label zone failure domain matched', podWith('PVC_1'), n),
    ['unbound volume empty storage class', podWith('PVC_EmptySC'), n, U, ['PersistentVolumeClaim had no pv name and storageClass name']],
    ['unbound volume no storage class', podWith('PVC_NoSC'), n, U, ['storageclass.storage.orch.io "Class_0" not found']],
    ['unbound volume immediate binding mode', podWith('PVC_ImmediateSC'), n, U, ['PersistentVolume had no name']],
    ok('unbound volume wait binding mode', podWith('PVC_WaitSC'), n),
  ]);
});

test('labelZonesToSet', () => {
  assert.deepEqual([...(labelZonesToSet('a__b') ?? [])], ['a', 'b']);
  assert.equal(labelZonesToSet('a____b'), undefined);
});
