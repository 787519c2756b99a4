/**
 * VolumeBinding (PreFilter, Filter, Reserve/Unreserve, PreBind), upstream 1.21: a pod's
 * bound claims need PVs whose node affinity admits the node; unbound WaitForFirstConsumer
 * claims need a matching available PV or a class that may provision on the node; unbound
 * Immediate claims make the pod unresolvable until the PV controller binds them. Reserve
 * assumes the node's choice, PreBind writes it and waits for the claims to be bound.
 */
import type { CycleState, StateData } from '../../framework/cycle-state.js';
import { StateKey } from '../../framework/cycle-state.js';
import { ActionType, type ClusterEvent } from '../../framework/events.js';
import type { FrameworkHandle } from '../../framework/handle.js';
import type { FilterPlugin, PreBindPlugin, PreFilterPlugin, ReservePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { Code, errorStatus, Status, SUCCESS, unresolvable } from '../../framework/status.js';
import type { PersistentVolumeClaim, Pod } from '../../framework/types.js';
import { type PodVolumes, VolumeBinder } from './binder.js';
import { asVolumeBinderClient } from './client.js';
import { ephemeralClaimError, notFound, volumeClaim } from './volume-util.js';

export const NAME = 'VolumeBinding';
export const ERR_REASON_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
/** v1beta1 VolumeBindingArgs default. */
export const DEFAULT_BIND_TIMEOUT_SECONDS = 600;

export interface VolumeBindingArgs {
  bindTimeoutSeconds?: number;
}

/** The cycle's claims and, per feasible node, what binding there needs. */
export class VolumeBindingState implements StateData {
  allBound = false;
  constructor(
    readonly skip: boolean,
    readonly boundClaims: PersistentVolumeClaim[] = [],
    readonly claimsToBind: PersistentVolumeClaim[] = [],
    readonly podVolumesByNode = new Map<string, PodVolumes>(),
  ) {}

  /** Shared, not copied, as upstream: Filter adds per-node results and preemption never removes them. */
  clone(): StateData {
    return this;
  }
}

export const STATE_KEY = new StateKey<VolumeBindingState>(`PreFilter${NAME}`);

export class VolumeBinding implements PreFilterPlugin, FilterPlugin, ReservePlugin, PreBindPlugin {
  readonly name = NAME;
  readonly binder: VolumeBinder;

  constructor(
    private readonly handle: FrameworkHandle,
    bindTimeoutSeconds = DEFAULT_BIND_TIMEOUT_SECONDS,
  ) {
    this.binder = new VolumeBinder(handle.listers, handle.names, handle.clock, bindTimeoutSeconds * 1000);
  }

  /** podHasPVCs: whether the pod uses claims; a string is why it cannot be scheduled yet. */
  private podHasPVCs(pod: Pod): boolean | string {
    let has = false;
    const ns = pod.metadata.namespace ?? '';
    for (const vol of pod.spec.volumes ?? []) {
      const c = volumeClaim(pod, vol);
      if (c === undefined) continue;
      has = true;
      const pvc = this.handle.listers.persistentVolumeClaims.get(c.name, ns);
      if (pvc === undefined) {
        // Normal right after creating a pod with a generic ephemeral volume.
        if (c.ephemeral) return `waiting for ephemeral volume controller to create the persistentvolumeclaim "${c.name}"`;
        return notFound('persistentvolumeclaim', c.name);
      }
      if (pvc.metadata.deletionTimestamp) return `persistentvolumeclaim "${pvc.metadata.name}" is being deleted`;
      if (c.ephemeral) {
        const e = ephemeralClaimError(pod, pvc);
        if (e !== undefined) return e;
      }
    }
    return has;
  }

  preFilter(state: CycleState, pod: Pod): Status {
    const has = this.podHasPVCs(pod);
    if (typeof has === 'string') return unresolvable(has);
    if (!has) {
      state.write(STATE_KEY, new VolumeBindingState(true));
      return SUCCESS;
    }
    const claims = this.binder.getPodVolumes(pod);
    if (typeof claims === 'string') return errorStatus(claims);
    // The pod returns to the queue once the PV controller binds them (a PVC update).
    if (claims.immediate.length > 0) return unresolvable(ERR_REASON_UNBOUND_IMMEDIATE);
    state.write(STATE_KEY, new VolumeBindingState(false, claims.bound, claims.toBind));
    return SUCCESS;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status {
    const node = nodeInfo.node;
    if (node === undefined) return errorStatus('node not found');
    const s = state.read(STATE_KEY);
    if (s === undefined) return errorStatus(`error reading "${STATE_KEY.name}" from cycleState: not found`);
    if (s.skip) return SUCCESS;
    const r = this.binder.findPodVolumes(s.boundClaims, s.claimsToBind, node);
    if (typeof r === 'string') return errorStatus(r);
    if (r.reasons.length > 0) return new Status(Code.UnschedulableAndUnresolvable, r.reasons);
    s.podVolumesByNode.set(nodeInfo.name, r.podVolumes);
    return SUCCESS;
  }

  reserve(state: CycleState, pod: Pod, nodeName: string): Status {
    const s = state.read(STATE_KEY);
    if (s === undefined) return errorStatus(`error reading "${STATE_KEY.name}" from cycleState: not found`);
    const podVolumes = s.podVolumesByNode.get(nodeName);
    if (podVolumes === undefined) {
      // The pod references no claim.
      s.allBound = true;
      return SUCCESS;
    }
    try {
      s.allBound = this.binder.assumePodVolumes(pod, nodeName, podVolumes);
    } catch (e) {
      this.binder.revertAssumedPodVolumes(podVolumes);
      return errorStatus(e);
    }
    return SUCCESS;
  }

  unreserve(state: CycleState, _pod: Pod, nodeName: string): void {
    const podVolumes = state.read(STATE_KEY)?.podVolumesByNode.get(nodeName);
    if (podVolumes !== undefined) this.binder.revertAssumedPodVolumes(podVolumes);
  }

  async preBind(state: CycleState, pod: Pod, nodeName: string): Promise<Status> {
    const s = state.read(STATE_KEY);
    if (s === undefined) return errorStatus(`error reading "${STATE_KEY.name}" from cycleState: not found`);
    if (s.allBound) return SUCCESS;
    const podVolumes = s.podVolumesByNode.get(nodeName);
    if (podVolumes === undefined) return errorStatus(`no pod volumes found for node "${nodeName}"`);
    const client = asVolumeBinderClient(this.handle.client);
    if (client === undefined) return errorStatus('the scheduler client cannot bind volumes');
    try {
      await this.binder.bindPodVolumes({ ...pod, spec: { ...pod.spec, nodeName } }, podVolumes, client);
    } catch (e) {
      return errorStatus(e);
    }
    return SUCCESS;
  }

  eventsToRegister(): ClusterEvent[] {
    const addOrUpdate = ActionType.Add | ActionType.Update;
    return [
      // A missing or mis-configured class (allowedTopologies, binding mode) may be fixed.
      { resource: 'StorageClass', actionType: addOrUpdate, label: 'StorageClassAddOrUpdate' },
      { resource: 'PersistentVolumeClaim', actionType: addOrUpdate, label: 'PVCAddOrUpdate' },
      { resource: 'PersistentVolume', actionType: addOrUpdate, label: 'PVAddOrUpdate' },
      // Node labels decide PV node affinity and allowed topologies.
      { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel, label: 'NodeAddOrLabelUpdate' },
      { resource: 'CSINode', actionType: addOrUpdate, label: 'CSINodeAddOrUpdate' },
    ];
  }
}

/** Applies v1beta1 defaults and validation to VolumeBindingArgs. */
export function resolveArgs(args: unknown): Required<VolumeBindingArgs> {
  const a = (args ?? {}) as VolumeBindingArgs;
  const t = a.bindTimeoutSeconds ?? DEFAULT_BIND_TIMEOUT_SECONDS;
  if (typeof t !== 'number' || !Number.isInteger(t) || t < 0)
    throw new Error('bindTimeoutSeconds: Invalid value: invalid BindTimeoutSeconds, should not be a negative value');
  return { bindTimeoutSeconds: t };
}

export const factory: PluginFactory = (args, handle) => new VolumeBinding(handle, resolveArgs(args).bindTimeoutSeconds);
