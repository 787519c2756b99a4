/**
 * VolumeZone (Filter): a pod's bound PersistentVolumes carry zone/region labels; the node
 * must have the same label with a value in the volume's set (`a__b` lists several zones).
 * Upstream 1.21 compares label keys as they are: a beta-labelled volume needs a beta-labelled
 * node. Unbound claims of WaitForFirstConsumer classes are left to VolumeBinding.
 */
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType, type ClusterEvent } from '../../framework/events.js';
import type { Listers, FrameworkHandle } from '../../framework/handle.js';
import type { FilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { errorStatus, type Status, SUCCESS, unresolvable } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { claimClass, notFound, type StorageNames, storageNames } from '../volume-binding/volume-util.js';

export const NAME = 'VolumeZone';
export const ERR_REASON_CONFLICT = 'node(s) had no available volume zone';

/** volumehelpers.LabelZonesToSet: `a__b` is the set {a, b}; empty parts are an error. */
export function labelZonesToSet(value: string): Set<string> | undefined {
  const parts = value.split('__');
  if (parts.some((p) => p.trim() === '')) return undefined;
  return new Set(parts.map((p) => p.trim()));
}

export class VolumeZone implements FilterPlugin {
  readonly name = NAME;
  private readonly zoneLabels: ReadonlySet<string>;
  private readonly sn: StorageNames;

  constructor(
    private readonly listers: Listers,
    names: FrameworkHandle['names'],
  ) {
    this.zoneLabels = new Set([names.legacyZoneLabel, names.legacyRegionLabel, names.zoneLabel, names.regionLabel]);
    this.sn = storageNames(names);
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    // Runs per node: no `?? []`, whose array V8 allocates on every call.
    const volumes = pod.spec.volumes;
    if (volumes === undefined || volumes.length === 0) return SUCCESS;
    const node = nodeInfo.node;
    if (node === undefined) return errorStatus('node not found');
    const nodeConstraints = new Map<string, string>();
    for (const [k, v] of Object.entries(node.metadata.labels ?? {})) if (this.zoneLabels.has(k)) nodeConstraints.set(k, v);
    // A node without zone labels may run any volume.
    if (nodeConstraints.size === 0) return SUCCESS;

    const ns = pod.metadata.namespace ?? '';
    for (const vol of volumes) {
      if (vol.persistentVolumeClaim === undefined) continue;
      const pvcName = vol.persistentVolumeClaim.claimName;
      if (!pvcName) return unresolvable('PersistentVolumeClaim had no name');
      const pvc = this.listers.persistentVolumeClaims.get(pvcName, ns);
      if (pvc === undefined) return unresolvable(notFound('persistentvolumeclaim', pvcName));
      const pvName = pvc.spec.volumeName ?? '';
      if (pvName === '') {
        const scName = claimClass(pvc, this.sn);
        if (scName === '') return unresolvable('PersistentVolumeClaim had no pv name and storageClass name');
        const sc = this.listers.storageClasses.get(scName);
        if (sc === undefined) return unresolvable(notFound(this.sn.storageClassResource, scName));
        // The API server defaults volumeBindingMode to Immediate.
        if ((sc.volumeBindingMode ?? 'Immediate') === 'WaitForFirstConsumer') continue;
        return unresolvable('PersistentVolume had no name');
      }
      const pv = this.listers.persistentVolumes.get(pvName);
      if (pv === undefined) return unresolvable(notFound('persistentvolume', pvName));
      for (const [k, v] of Object.entries(pv.metadata.labels ?? {})) {
        if (!this.zoneLabels.has(k)) continue;
        const set = labelZonesToSet(v);
        // Upstream logs and ignores a label it cannot parse.
        if (set === undefined) continue;
        if (!set.has(nodeConstraints.get(k) ?? '')) return unresolvable(ERR_REASON_CONFLICT);
      }
    }
    return SUCCESS;
  }

  eventsToRegister(): ClusterEvent[] {
    return [
      { resource: 'StorageClass', actionType: ActionType.Add, label: 'StorageClassAdd' },
      { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel, label: 'NodeAddOrLabelUpdate' },
      { resource: 'PersistentVolumeClaim', actionType: ActionType.Add | ActionType.Update, label: 'PVCAddOrUpdate' },
      { resource: 'PersistentVolume', actionType: ActionType.Add | ActionType.Update, label: 'PVAddOrUpdate' },
    ];
  }
}

export const factory: PluginFactory = (_args, handle) => new VolumeZone(handle.listers, handle.names);
