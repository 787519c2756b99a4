/**
 * The writes VolumeBinding's PreBind makes, beyond FrameworkHandle's SchedulerClient. The
 * scheduler process implements them as upstream's bindAPIUpdate (PUT the PV with claimRef set;
 * PUT the claim with the selected-node annotation) and the PV controller / provisioner finish
 * the binding; the simulator plays those controllers and binds at once. PreBind then waits
 * until the listers show the claims bound.
 */
import type { PersistentVolume, PersistentVolumeClaim } from '../../framework/types.js';

export interface VolumeBinderClient {
  /** Binds the claim to the PV chosen for it (the PV carries the assumed claimRef). */
  bindVolume(pvc: PersistentVolumeClaim, pv: PersistentVolume): Promise<void>;
  /** Asks for a volume to be provisioned for the claim on the node (the claim carries the selected-node annotation). */
  provisionVolume(pvc: PersistentVolumeClaim, nodeName: string): Promise<void>;
}

/** The handle's client when it can bind volumes (duck-typed: the framework's SchedulerClient does not name these). */
export function asVolumeBinderClient(client: unknown): VolumeBinderClient | undefined {
  const c = client as Partial<VolumeBinderClient> | undefined;
  return typeof c?.bindVolume === 'function' && typeof c.provisionVolume === 'function' ? (c as VolumeBinderClient) : undefined;
}
