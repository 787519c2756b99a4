/**
 * NodeVolumeLimits (Filter): CSI volumes a node may attach, per driver, as the CSINode's
 * `spec.drivers[].allocatable.count` says (or the node's `attachable-volumes-csi-<driver>`).
 * A volume is `<driver>/<volumeHandle>` and counts once however many pods use it; an unbound
 * claim counts as a volume of its class's provisioner. In-tree volumes are not translated to
 * CSI: the CSIMigration gates of those drivers are off by default in 1.21.
 */
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType, type ClusterEvent } from '../../framework/events.js';
import type { Listers } from '../../framework/handle.js';
import type { FilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { errorStatus, type Status, SUCCESS, unschedulable } from '../../framework/status.js';
import type { PersistentVolumeClaim, Pod } from '../../framework/types.js';
import type { WellKnownNames } from '../../framework/well-known.js';
import { claimClass, type StorageNames, storageNames } from '../volume-binding/volume-util.js';
import { lookupClaim } from './claims.js';
import { csiAttachLimitKey, csiVolumeLimits, ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED, randomVolumeIDPrefix } from './limits.js';

export const NAME = 'NodeVolumeLimits';

export class CSILimits implements FilterPlugin {
  readonly name = NAME;
  private readonly sn: StorageNames;

  constructor(
    private readonly listers: Listers,
    names: WellKnownNames,
    private readonly volumeIDPrefix = randomVolumeIDPrefix(),
  ) {
    this.sn = storageNames(names);
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    // Runs per node: no `?? []`, whose array V8 allocates on every call.
    if (pod.spec.volumes === undefined || pod.spec.volumes.length === 0) return SUCCESS;
    const node = nodeInfo.node;
    if (node === undefined) return errorStatus('node not found');
    // Without a CSINode the limits may still come from the node's allocatable.
    const csiNode = this.listers.csiNodes.get(nodeInfo.name);

    const newVolumes = new Map<string, string>();
    const err = this.filterAttachableVolumes(pod, true, newVolumes);
    if (err !== undefined) return errorStatus(err);
    if (newVolumes.size === 0) return SUCCESS;

    const limits = csiVolumeLimits(nodeInfo, csiNode);
    if (limits.size === 0) return SUCCESS;

    const attached = new Map<string, string>();
    for (const existing of nodeInfo.pods) {
      const e = this.filterAttachableVolumes(existing.pod, false, attached);
      if (e !== undefined) return errorStatus(e);
    }
    const attachedCount = new Map<string, number>();
    for (const [unique, key] of attached) {
      // A volume already attached for another pod costs nothing more.
      newVolumes.delete(unique);
      attachedCount.set(key, (attachedCount.get(key) ?? 0) + 1);
    }
    const newCount = new Map<string, number>();
    for (const key of newVolumes.values()) newCount.set(key, (newCount.get(key) ?? 0) + 1);
    for (const [key, count] of newCount) {
      const max = limits.get(key);
      if (max !== undefined && (attachedCount.get(key) ?? 0) + count > max) return unschedulable(ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);
    }
    return SUCCESS;
  }

  /** Adds the pod's CSI volumes as unique name -> limit key; returns an error text for a new pod's missing claim. */
  private filterAttachableVolumes(pod: Pod, newPod: boolean, result: Map<string, string>): string | undefined {
    for (const vol of pod.spec.volumes ?? []) {
      const found = lookupClaim(this.listers, pod, vol, newPod);
      if (found.kind === 'error') return found.message;
      if (found.kind === 'none') continue;
      const [driver, handle] = this.csiDriverInfo(found.pvc);
      if (driver === '' || handle === '') continue;
      result.set(`${driver}/${handle}`, csiAttachLimitKey(driver));
    }
    return undefined;
  }

  /** The claim's CSI driver and volume handle, from its PV or, unbound, from its class. */
  private csiDriverInfo(pvc: PersistentVolumeClaim): [string, string] {
    const pvName = pvc.spec.volumeName ?? '';
    if (pvName === '') return this.csiDriverInfoFromClass(pvc);
    const pv = this.listers.persistentVolumes.get(pvName);
    // A deleted PV, or a claim pre-bound to a PV not created yet: count by class.
    if (pv === undefined) return this.csiDriverInfoFromClass(pvc);
    const csi = pv.spec.csi;
    if (csi === undefined) return ['', ''];
    return [csi.driver, csi.volumeHandle];
  }

  private csiDriverInfoFromClass(pvc: PersistentVolumeClaim): [string, string] {
    const scName = claimClass(pvc, this.sn);
    // Without a class the claim binds immediately, so it is bound before scheduling: not counted here.
    if (scName === '') return ['', ''];
    const sc = this.listers.storageClasses.get(scName);
    if (sc === undefined) return ['', ''];
    // Until provisioned the volume has no handle: a random prefix keeps the stand-in unique.
    return [sc.provisioner, `${this.volumeIDPrefix}-${pvc.metadata.namespace ?? ''}/${pvc.metadata.name ?? ''}`];
  }

  eventsToRegister(): ClusterEvent[] {
    return [
      { resource: 'CSINode', actionType: ActionType.Add, label: 'CSINodeAdd' },
      { resource: 'Pod', actionType: ActionType.Delete, label: 'AssignedPodDelete' },
    ];
  }
}

export const factory: PluginFactory = (_args, handle) => new CSILimits(handle.listers, handle.names);
