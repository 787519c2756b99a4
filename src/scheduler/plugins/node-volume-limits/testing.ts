/** Upstream's non-CSI limit test fixtures (non_csi_test.go), shared by the four cloud filters' tests. */
import { FakeClock } from '../../framework/clock.js';
import { NodeInfo } from '../../framework/node-info.js';
import { PodInfo } from '../../framework/pod-info.js';
import type { PersistentVolumeClaim, Pod, Volume } from '../../framework/types.js';
import { SimulatedCluster } from '../../simulator/cluster.js';

let seq = 0;
/** A pod in namespace "default" with the given volumes. */
export const podWithVolumes = (...volumes: Volume[]): Pod => ({
  metadata: { name: `p${++seq}`, namespace: 'default', uid: `u${seq}` },
  spec: { containers: [], volumes },
});
export const ebs = (volumeID: string): Volume => ({ name: volumeID, awsElasticBlockStore: { volumeID } });
export const hostPath = (): Volume => ({ name: 'hp', hostPath: { path: '/tmp' } });
export const claim = (claimName: string): Volume => ({ name: claimName, persistentVolumeClaim: { claimName } });
export const pvcPod = (...names: string[]): Pod => podWithVolumes(...names.map(claim));

export const oneVolPod = podWithVolumes(ebs('ovp'));
export const twoVolPod = podWithVolumes(ebs('tvp1'), ebs('tvp2'));
export const splitVolsPod = podWithVolumes(hostPath(), ebs('svp'));
export const nonApplicablePod = podWithVolumes(hostPath());
export const deletedPVCPod = pvcPod('deletedPVC');
export const twoDeletedPVCPod = pvcPod('deletedPVC', 'anotherDeletedPVC');
export const deletedPVPod = pvcPod('pvcWithDeletedPV');
export const deletedPVPod2 = pvcPod('pvcWithDeletedPV');
export const anotherDeletedPVPod = pvcPod('anotherPVCWithDeletedPV');
export const emptyPod = podWithVolumes();
export const unboundPVCPod = pvcPod('unboundPVC');
export const unboundPVCPod2 = pvcPod('unboundPVC');
export const anotherUnboundPVCPod = pvcPod('anotherUnboundPVC');
export const onePVCPod = (filterName: string): Pod => pvcPod(`some${filterName}Vol`);
export const splitPVCPod = (filterName: string): Pod => pvcPod(`someNon${filterName}Vol`, `some${filterName}Vol`);

const pvc = (name: string, volumeName: string, storageClassName: string): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'default' },
  spec: { volumeName: volumeName || undefined, storageClassName },
});

/** Listers with upstream's fake PVCs, PVs (EBS-backed) and one class named after the filter. */
export function fakeCluster(filterName: string, provisioner: string, extraClaims: PersistentVolumeClaim[] = []): SimulatedCluster {
  const c = new SimulatedCluster(new FakeClock());
  const claims = [
    pvc(`some${filterName}Vol`, `some${filterName}Vol`, filterName),
    pvc(`someNon${filterName}Vol`, `someNon${filterName}Vol`, filterName),
    pvc('pvcWithDeletedPV', 'pvcWithDeletedPV', filterName),
    pvc('anotherPVCWithDeletedPV', 'anotherPVCWithDeletedPV', filterName),
    pvc('unboundPVC', '', filterName),
    pvc('anotherUnboundPVC', '', filterName),
    pvc('unboundPVCWithDefaultSCPod', '', 'standard-sc'),
    pvc('unboundPVCWithInvalidSCPod', '', 'invalid-sc'),
    ...extraClaims,
  ];
  for (const o of claims) c.addObject(c.persistentVolumeClaims, o, true);
  c.addObject(
    c.persistentVolumes,
    { metadata: { name: `some${filterName}Vol` }, spec: { awsElasticBlockStore: { volumeID: `${filterName.toLowerCase()}Vol` } } },
    false,
  );
  c.addObject(c.persistentVolumes, { metadata: { name: `someNon${filterName}Vol` }, spec: {} }, false);
  c.addObject(c.storageClasses, { metadata: { name: filterName }, provisioner }, false);
  return c;
}

/** A node whose allocatable sets the limit resource to maxVols, holding the existing pods. */
export function nodeWithLimit(limitKey: string, maxVols: number, pods: Pod[]): NodeInfo {
  const ni = new NodeInfo({ metadata: { name: 'node-for-max-pd-test-1' }, status: { allocatable: { [limitKey]: String(maxVols) } } });
  for (const p of pods) ni.addPod(new PodInfo(p));
  return ni;
}
