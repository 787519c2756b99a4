/**
 * The in-tree cloud volume limit filters (upstream's nonCSILimits): how many volumes of one
 * cloud type a node may attach. The limit is the node's `attachable-volumes-<type>`
 * allocatable when set, else KUBE_MAX_PD_VOLS, else the cloud's default. Each plugin
 * (EBSLimits, GCEPDLimits, AzureDiskLimits, CinderLimits) is this filter with its VolumeFilter.
 */
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType, type ClusterEvent } from '../../framework/events.js';
import type { Listers } from '../../framework/handle.js';
import type { FilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { errorStatus, type Status, SUCCESS, unschedulable } from '../../framework/status.js';
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass, Volume } from '../../framework/types.js';
import type { WellKnownNames } from '../../framework/well-known.js';
import { lookupClaim } from './claims.js';
import { ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED, nodeVolumeLimits, randomVolumeIDPrefix } from './limits.js';

/** Environment variable that overrides every default limit (upstream's KUBE_MAX_PD_VOLS). */
export const MAX_PD_VOLS_ENV = 'KUBE_MAX_PD_VOLS';

/** How one cloud's volumes are recognised and limited. */
export interface VolumeFilter {
  /** The volume ID of an inline volume of this type. */
  filterVolume(vol: Volume): string | undefined;
  /** The volume ID of a PV of this type. */
  filterPersistentVolume(pv: PersistentVolume): string | undefined;
  /** Whether the class provisions volumes of this type (unbound claims count then). */
  matchProvisioner(sc: StorageClass): boolean;
  /** The node allocatable resource that overrides the limit, e.g. `attachable-volumes-aws-ebs`. */
  readonly volumeLimitKey: string;
  /** The default limit for a node. */
  maxVolumes(node: Node): number;
}

/** getMaxVolLimitFromEnv: a positive integer, or -1 when unset or invalid. */
export function maxVolLimitFromEnv(raw: string | undefined = process.env[MAX_PD_VOLS_ENV]): number {
  if (raw === undefined || raw === '') return -1;
  if (!/^[+-]?\d+$/.test(raw.trim())) return -1;
  const n = Number.parseInt(raw, 10);
  return n <= 0 ? -1 : n;
}

export class NonCSILimits implements FilterPlugin {
  constructor(
    readonly name: string,
    private readonly volFilter: VolumeFilter,
    private readonly listers: Listers,
    private readonly volumeIDPrefix = randomVolumeIDPrefix(),
    private readonly maxFromEnv = maxVolLimitFromEnv(),
  ) {}

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    // Runs per node: no `?? []`, whose array V8 allocates on every call.
    if (pod.spec.volumes === undefined || pod.spec.volumes.length === 0) return SUCCESS;
    const newVolumes = new Set<string>();
    const err = this.filterVolumes(pod, true, newVolumes);
    if (err !== undefined) return errorStatus(err);
    if (newVolumes.size === 0) return SUCCESS;
    const node = nodeInfo.node;
    if (node === undefined) return errorStatus('node not found');

    const existing = new Set<string>();
    for (const pi of nodeInfo.pods) {
      const e = this.filterVolumes(pi.pod, false, existing);
      if (e !== undefined) return errorStatus(e);
    }
    // Volumes already mounted on the node cost nothing more.
    for (const id of existing) newVolumes.delete(id);

    let max = this.maxFromEnv > 0 ? this.maxFromEnv : this.volFilter.maxVolumes(node);
    const fromAllocatable = nodeVolumeLimits(nodeInfo).get(this.volFilter.volumeLimitKey);
    if (fromAllocatable !== undefined) max = fromAllocatable;
    if (existing.size + newVolumes.size > max) return unschedulable(ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED);
    return SUCCESS;
  }

  /** Adds the IDs of the pod's volumes of this type; returns an error text for a new pod's missing claim. */
  private filterVolumes(pod: Pod, newPod: boolean, out: Set<string>): string | undefined {
    const ns = pod.metadata.namespace ?? '';
    for (const vol of pod.spec.volumes ?? []) {
      const id = this.volFilter.filterVolume(vol);
      if (id !== undefined) {
        out.add(id);
        continue;
      }
      const found = lookupClaim(this.listers, pod, vol, newPod);
      if (found.kind === 'error') return found.message;
      if (found.kind === 'none') continue;
      const pvc = found.pvc;
      // Until the real volume ID is known, namespace/claim stands in for it.
      const pvID = `${this.volumeIDPrefix}-${ns}/${found.name}`;
      const pvName = pvc.spec.volumeName ?? '';
      if (pvName === '') {
        // Unbound (or forcibly unbound): the pod may still use its old PV, so count it if the class matches.
        if (this.matchProvisioner(pvc)) out.add(pvID);
        continue;
      }
      const pv = this.listers.persistentVolumes.get(pvName);
      if (pv === undefined) {
        if (this.matchProvisioner(pvc)) out.add(pvID);
        continue;
      }
      const pvId = this.volFilter.filterPersistentVolume(pv);
      if (pvId !== undefined) out.add(pvId);
    }
    return undefined;
  }

  /** Upstream reads spec.storageClassName only here, not the beta annotation. */
  private matchProvisioner(pvc: PersistentVolumeClaim): boolean {
    const scName = pvc.spec.storageClassName;
    if (scName === undefined || scName === null) return false;
    const sc = this.listers.storageClasses.get(scName);
    return sc !== undefined && this.volFilter.matchProvisioner(sc);
  }

  eventsToRegister(): ClusterEvent[] {
    return [
      { resource: 'Node', actionType: ActionType.Add, label: 'NodeAdd' },
      { resource: 'Pod', actionType: ActionType.Delete, label: 'AssignedPodDelete' },
    ];
  }
}

/** The instance type label of a node (stable, then beta), "" when absent. */
export function nodeInstanceType(node: Node, names: WellKnownNames): string {
  const l = node.metadata.labels ?? {};
  const d = names.labelDomain;
  return l[`node.${d}/instance-type`] ?? l[`beta.${d}/instance-type`] ?? '';
}
