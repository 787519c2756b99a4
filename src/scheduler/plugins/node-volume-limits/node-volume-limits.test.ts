import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../../framework/clock.js';
import { CycleState } from '../../framework/cycle-state.js';
import { NodeInfo } from '../../framework/node-info.js';
import { PodInfo } from '../../framework/pod-info.js';
import { Code } from '../../framework/status.js';
import type { CSINode, PersistentVolumeClaim, Pod } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';
import { SimulatedCluster } from '../../simulator/cluster.js';
import { csiAttachLimitKey, ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED } from './limits.js';
import { CSILimits } from './node-volume-limits.js';

const EBS = 'ebs.csi.aws.com';
const GCE = 'pd.csi.storage.gke.io';
const SC = 'csi-sc';
const NODE = 'node-for-max-pd-test-1';

let seq = 0;
const pvcPod = (...claims: string[]): Pod => ({
  metadata: { name: `p${++seq}`, namespace: 'default', uid: `u${seq}` },
  spec: { containers: [], volumes: claims.map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } })) },
});
const ephemeralPod = (uid: string, ...vols: string[]): Pod => ({
  metadata: { name: 'abc', namespace: 'test', uid },
  spec: { containers: [], volumes: vols.map((name) => ({ name, ephemeral: {} })) },
});
const ownedClaim = (pod: Pod, vol: string): PersistentVolumeClaim => ({
  metadata: {
    name: `${pod.metadata.name}-${vol}`,
    namespace: 'test',
    ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '', controller: true }],
  },
  spec: { storageClassName: SC },
});

const runningPod = pvcPod(`csi-${EBS}-3`);
const pendingVolumePod = pvcPod('csi-4');
const unboundPVCPod2 = pvcPod('csi-4');
const missingPVPod = pvcPod('csi-6');
const noSCPVCPod = pvcPod('csi-5');
const gceTwoVolPod = pvcPod(`csi-${GCE}-1`, `csi-${GCE}-2`);
const csiEBSOneVolPod = pvcPod(`csi-${EBS}-0`);
const csiEBSTwoVolPod = pvcPod(`csi-${EBS}-1`, `csi-${EBS}-2`);
const ephemeralVolumePod = ephemeralPod('12345', 'xyz');
const ephemeralClaim = ownedClaim(ephemeralVolumePod, 'xyz');
const conflictingClaim: PersistentVolumeClaim = { ...ephemeralClaim, metadata: { ...ephemeralClaim.metadata, ownerReferences: undefined } };
const ephemeralTwoVolumePod = ephemeralPod('12345II', 'x', 'y');
const ephemeralClaimX = ownedClaim(ephemeralTwoVolumePod, 'x');
const ephemeralClaimY = ownedClaim(ephemeralTwoVolumePod, 'y');

type LimitSource = 'csinode' | 'csinode-with-no-limit' | 'node' | 'none';

/** Upstream's getFakeCSIPVLister / PVCLister / StorageClassLister / CSINodeLister in one cluster. */
function setup(drivers: string[], source: LimitSource, max: number, extraClaims: PersistentVolumeClaim[], pods: Pod[]) {
  const c = new SimulatedCluster(new FakeClock());
  for (const d of drivers) {
    for (let j = 0; j < 4; j++) {
      const name = `csi-${d}-${j}`;
      c.addObject(c.persistentVolumes, { metadata: { name }, spec: { csi: { driver: d, volumeHandle: name } } }, false);
      c.addObject(c.persistentVolumeClaims, { metadata: { name, namespace: 'default' }, spec: { volumeName: name } }, true);
    }
  }
  c.addObject(c.persistentVolumeClaims, { metadata: { name: 'csi-4', namespace: 'default' }, spec: { storageClassName: SC } }, true);
  c.addObject(c.persistentVolumeClaims, { metadata: { name: 'csi-5', namespace: 'default' }, spec: {} }, true);
  c.addObject(
    c.persistentVolumeClaims,
    { metadata: { name: 'csi-6', namespace: 'default' }, spec: { storageClassName: SC, volumeName: 'missing-in-action' } },
    true,
  );
  for (const o of extraClaims) c.addObject(c.persistentVolumeClaims, o, true);
  c.addObject(c.storageClasses, { metadata: { name: SC }, provisioner: drivers[0] }, false);
  if (source === 'csinode' || source === 'csinode-with-no-limit') {
    const csiNode: CSINode = {
      metadata: { name: NODE },
      spec: { drivers: drivers.map((name) => ({ name, nodeID: NODE, ...(source === 'csinode' ? { allocatable: { count: max } } : {}) })) },
    };
    c.addObject(c.csiNodes, csiNode, false);
  }
  const allocatable: Record<string, string> = {};
  if (source === 'node') for (const d of drivers) allocatable[csiAttachLimitKey(d)] = String(max);
  const ni = new NodeInfo({ metadata: { name: NODE }, status: { allocatable } });
  for (const p of pods) ni.addPod(new PodInfo(p));
  return { pl: new CSILimits(c, ORCH_NAMES, 'prefix'), ni };
}

test('NodeVolumeLimits.filter (upstream TestCSILimits)', () => {
  const FAIL: [Code, string[]] = [Code.Unschedulable, [ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED]];
  const OK: [Code, string[]] = [Code.Success, []];
  const cases: [string, Pod, Pod[], number, string[], LimitSource, [Code, string[]], PersistentVolumeClaim[]?][] = [
    ['fits when node volume limit >= new pods CSI volume', csiEBSOneVolPod, [runningPod, csiEBSTwoVolPod], 4, [EBS], 'csinode', OK],
    ["doesn't when node volume limit <= pods CSI volume", csiEBSOneVolPod, [runningPod, csiEBSTwoVolPod], 2, [EBS], 'csinode', FAIL],
    ['should when driver does not support volume limits', csiEBSOneVolPod, [runningPod, csiEBSTwoVolPod], 2, [EBS], 'csinode-with-no-limit', OK],
    ["limit from the node's allocatable", csiEBSOneVolPod, [runningPod, csiEBSTwoVolPod], 2, [EBS], 'node', FAIL],
    ['no limits at all', csiEBSOneVolPod, [runningPod, csiEBSTwoVolPod], 2, [EBS], 'none', OK],
    ['count pending PVCs towards volume limit <= pods CSI volume', csiEBSOneVolPod, [pendingVolumePod, csiEBSTwoVolPod], 2, [EBS], 'csinode', FAIL],
    [
      'count multiple pending pvcs towards volume limit >= pods CSI volume',
      csiEBSOneVolPod,
      [pendingVolumePod, unboundPVCPod2, csiEBSTwoVolPod],
      4,
      [EBS],
      'csinode',
      OK,
    ],
    ['should count PVCs with invalid PV name but valid SC', csiEBSOneVolPod, [missingPVPod, csiEBSTwoVolPod], 2, [EBS], 'csinode', FAIL],
    ["don't count pvcs with missing SC towards volume limit", csiEBSOneVolPod, [runningPod, noSCPVCPod], 2, [EBS], 'csinode', OK],
    ['count pvcs with the same type towards volume limit', csiEBSOneVolPod, [gceTwoVolPod, csiEBSTwoVolPod], 2, [EBS, GCE], 'csinode', FAIL],
    ["don't count pvcs with different type towards volume limit", gceTwoVolPod, [csiEBSTwoVolPod, runningPod], 2, [EBS, GCE], 'csinode', OK],
    [
      'ephemeral volume missing',
      ephemeralVolumePod,
      [],
      0,
      [EBS],
      'csinode-with-no-limit',
      [Code.Error, ['looking up PVC test/abc-xyz: persistentvolumeclaim "abc-xyz" not found']],
    ],
    [
      'ephemeral volume not owned',
      ephemeralVolumePod,
      [],
      0,
      [EBS],
      'csinode-with-no-limit',
      [Code.Error, ['PVC test/abc-xyz was not created for pod test/abc (pod is not owner)']],
      [conflictingClaim],
    ],
    ['ephemeral volume unbound', ephemeralVolumePod, [], 0, [EBS], 'csinode-with-no-limit', OK, [ephemeralClaim]],
    [
      "ephemeral doesn't when node volume limit <= pods CSI volume",
      ephemeralVolumePod,
      [runningPod, csiEBSTwoVolPod],
      2,
      [EBS],
      'csinode',
      FAIL,
      [ephemeralClaim],
    ],
    [
      "ephemeral doesn't when node volume limit <= pods ephemeral CSI volume",
      csiEBSOneVolPod,
      [runningPod, ephemeralTwoVolumePod],
      2,
      [EBS],
      'csinode',
      FAIL,
      [ephemeralClaimX, ephemeralClaimY],
    ],
    [
      "persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume",
      csiEBSOneVolPod,
      [runningPod, ephemeralVolumePod, csiEBSTwoVolPod],
      3,
      [EBS],
      'csinode',
      FAIL,
      [ephemeralClaim],
    ],
    [
      'persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume',
      csiEBSOneVolPod,
      [runningPod, ephemeralVolumePod, csiEBSTwoVolPod],
      5,
      [EBS],
      'csinode',
      OK,
      [ephemeralClaim],
    ],
  ];
  for (const [name, pod, existing, max, drivers, source, [code, reasons], extra] of cases) {
    const { pl, ni } = setup(drivers, source, max, extra ?? [], existing);
    const s = pl.filter(new CycleState(), pod, ni);
    assert.equal(s.code, code, name);
    assert.deepEqual(s.reasons, reasons, name);
  }
});

test('csiAttachLimitKey hashes long driver names (volumeutil.GetCSIAttachLimitKey)', () => {
  assert.equal(csiAttachLimitKey(EBS), `attachable-volumes-csi-${EBS}`);
  const long = 'a-very-long-csi-driver-name.storage.example.com';
  const key = csiAttachLimitKey(long);
  assert.equal(key.length, 'attachable-volumes-csi-'.length + 23 + 16);
  assert.ok(key.startsWith(`attachable-volumes-csi-${long.slice(0, 23)}`));
});
