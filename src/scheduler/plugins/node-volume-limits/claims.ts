/** Resolving a pod volume to its claim, the step both volume-limit filters share (upstream does it twice). */
import type { Listers } from '../../framework/handle.js';
import type { PersistentVolumeClaim, Pod, Volume } from '../../framework/types.js';
import { ephemeralClaimError, notFound, volumeClaim } from '../volume-binding/volume-util.js';

export type ClaimLookup =
  /** The volume is not a claim, or an existing pod's claim is gone (not counted). */
  | { kind: 'none' }
  /** The filter fails with this message. */
  | { kind: 'error'; message: string }
  | { kind: 'claim'; name: string; pvc: PersistentVolumeClaim };

/** The claim behind one volume of a pod; a new pod's missing or foreign ephemeral claim is an error. */
export function lookupClaim(listers: Listers, pod: Pod, vol: Volume, newPod: boolean): ClaimLookup {
  const claim = volumeClaim(pod, vol);
  if (claim === undefined) return { kind: 'none' };
  if (claim.name === '') return { kind: 'error', message: 'PersistentVolumeClaim had no name' };
  const ns = pod.metadata.namespace ?? '';
  const pvc = listers.persistentVolumeClaims.get(claim.name, ns);
  if (pvc === undefined) {
    // A new pod cannot run without its claim; an existing pod's missing claim is not counted.
    return newPod ? { kind: 'error', message: `looking up PVC ${ns}/${claim.name}: ${notFound('persistentvolumeclaim', claim.name)}` } : { kind: 'none' };
  }
  if (claim.ephemeral) {
    const e = ephemeralClaimError(pod, pvc);
    if (e !== undefined) return { kind: 'error', message: e };
  }
  return { kind: 'claim', name: claim.name, pvc };
}
