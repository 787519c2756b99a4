/**
 * VolumeRestrictions (Filter): a pod may not mount a disk that a pod on the node already
 * mounts when the volume type cannot be shared that way (upstream 1.21's isVolumeConflict):
 * GCE PD and ISCSI unless both mounts are read-only, AWS EBS never, RBD when monitors overlap
 * on the same pool and image unless both are read-only.
 */
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType, type ClusterEvent } from '../../framework/events.js';
import type { FilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { type Status, SUCCESS, unschedulable } from '../../framework/status.js';
import type { Pod, Volume } from '../../framework/types.js';

export const NAME = 'VolumeRestrictions';
export const ERR_REASON_DISK_CONFLICT = 'node(s) had no available disk';

/** The API server defaults an RBD volume's pool to "rbd". */
const DEFAULT_RBD_POOL = 'rbd';

function haveOverlap(a: readonly string[], b: readonly string[]): boolean {
  const s = new Set(a);
  return b.some((x) => s.has(x));
}

/** True when mounting `v` conflicts with one of the volumes of the existing pod. */
export function isVolumeConflict(v: Volume, existing: Pod): boolean {
  for (const ev of existing.spec.volumes ?? []) {
    if (v.gcePersistentDisk !== undefined && ev.gcePersistentDisk !== undefined) {
      const [d, e] = [v.gcePersistentDisk, ev.gcePersistentDisk];
      if (d.pdName === e.pdName && !(d.readOnly && e.readOnly)) return true;
    }
    if (v.awsElasticBlockStore !== undefined && ev.awsElasticBlockStore !== undefined) {
      // EBS volumes attach to one instance only, read-only or not.
      if (v.awsElasticBlockStore.volumeID === ev.awsElasticBlockStore.volumeID) return true;
    }
    if (v.iscsi !== undefined && ev.iscsi !== undefined) {
      if (v.iscsi.iqn === ev.iscsi.iqn && !(v.iscsi.readOnly && ev.iscsi.readOnly)) return true;
    }
    if (v.rbd !== undefined && ev.rbd !== undefined) {
      const [d, e] = [v.rbd, ev.rbd];
      const samePool = (d.pool || DEFAULT_RBD_POOL) === (e.pool || DEFAULT_RBD_POOL);
      if (haveOverlap(d.monitors ?? [], e.monitors ?? []) && samePool && d.image === e.image && !(d.readOnly && e.readOnly)) return true;
    }
  }
  return false;
}

export class VolumeRestrictions implements FilterPlugin {
  readonly name = NAME;

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    // Runs per node: no `?? []`, whose array V8 allocates on every call.
    const volumes = pod.spec.volumes;
    if (volumes === undefined) return SUCCESS;
    for (const v of volumes) {
      // Fast path: only these four sources can conflict.
      if (v.gcePersistentDisk === undefined && v.awsElasticBlockStore === undefined && v.rbd === undefined && v.iscsi === undefined) continue;
      for (const ev of nodeInfo.pods) if (isVolumeConflict(v, ev.pod)) return unschedulable(ERR_REASON_DISK_CONFLICT);
    }
    return SUCCESS;
  }

  eventsToRegister(): ClusterEvent[] {
    return [
      // A conflicting pod going away frees the disk.
      { resource: 'Pod', actionType: ActionType.Delete, label: 'AssignedPodDelete' },
      { resource: 'Node', actionType: ActionType.Add, label: 'NodeAdd' },
    ];
  }
}

export const factory: PluginFactory = () => new VolumeRestrictions();
