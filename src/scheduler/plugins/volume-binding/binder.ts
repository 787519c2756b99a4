/**
 * Upstream 1.21's volume binder (pkg/controller/volume/scheduling): sorts a pod's claims into
 * bound, to-bind (WaitForFirstConsumer) and unbound-immediate; per node checks bound PVs'
 * node affinity and finds the smallest matching available PV per unbound claim or a class
 * that may provision there; assumes the choice at Reserve and writes it at PreBind.
 */
import { labelSelectorFromObject } from '../../../machinery/label-selector.js';
import type { Clock } from '../../framework/clock.js';
import type { Listers } from '../../framework/handle.js';
import { quantityValue } from '../../../machinery/quantity.js';
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../framework/types.js';
import type { WellKnownNames } from '../../framework/well-known.js';
import { AssumeCache } from './assume-cache.js';
import type { VolumeBinderClient } from './client.js';
import { claimClass, ephemeralClaimError, pvNodeAffinityMatches, type StorageNames, storageNames, volumeClaim, volumeClass } from './volume-util.js';

export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const ERR_REASON_NOT_ENOUGH_SPACE = 'node(s) did not have enough free storage';
export const ERR_REASON_PV_NOT_EXIST = 'pvc(s) bound to non-existent pv(s)';

export interface BindingInfo {
  pv: PersistentVolume;
  pvc: PersistentVolumeClaim;
}

/** What a node needs for the pod: static PV bindings and claims to provision. */
export interface PodVolumes {
  staticBindings: BindingInfo[];
  dynamicProvisions: PersistentVolumeClaim[];
}

export interface PodClaims {
  bound: PersistentVolumeClaim[];
  toBind: PersistentVolumeClaim[];
  immediate: PersistentVolumeClaim[];
}

const storageOf = (list: Readonly<Record<string, string | number>> | undefined): number => {
  const q = list?.storage;
  return q === undefined ? 0 : quantityValue(q);
};

export class VolumeBinder {
  readonly pvCache: AssumeCache<PersistentVolume>;
  readonly pvcCache: AssumeCache<PersistentVolumeClaim>;
  readonly sn: StorageNames;

  constructor(
    private readonly listers: Listers,
    names: WellKnownNames,
    private readonly clock: Clock,
    private readonly bindTimeoutMs: number,
  ) {
    this.pvCache = new AssumeCache(listers.persistentVolumes, false);
    this.pvcCache = new AssumeCache(listers.persistentVolumeClaims, true);
    this.sn = storageNames(names);
  }

  /** A claim is fully bound once the PV controller marked it bind-completed. */
  isPVCFullyBound(pvc: PersistentVolumeClaim): boolean {
    return !!pvc.spec.volumeName && pvc.metadata.annotations?.[this.sn.bindCompletedAnnotation] !== undefined;
  }

  /** WaitForFirstConsumer class; a missing class binds immediately (the PV controller's view). */
  private isDelayBinding(pvc: PersistentVolumeClaim): boolean {
    const name = claimClass(pvc, this.sn);
    if (name === '') return false;
    const sc = this.listers.storageClasses.get(name);
    // The API server defaults volumeBindingMode to Immediate.
    return sc !== undefined && (sc.volumeBindingMode ?? 'Immediate') === 'WaitForFirstConsumer';
  }

  /** GetPodVolumes; a string is an error (missing claim, foreign ephemeral claim). */
  getPodVolumes(pod: Pod): PodClaims | string {
    const out: PodClaims = { bound: [], toBind: [], immediate: [] };
    const ns = pod.metadata.namespace ?? '';
    for (const vol of pod.spec.volumes ?? []) {
      const c = volumeClaim(pod, vol);
      if (c === undefined) continue;
      const pvc = this.pvcCache.get(c.name, ns);
      if (pvc === undefined) return `error getting PVC "${ns}/${c.name}": could not find v1.PersistentVolumeClaim "${ns}/${c.name}"`;
      if (c.ephemeral) {
        const e = ephemeralClaimError(pod, pvc);
        if (e !== undefined) return e;
      }
      if (this.isPVCFullyBound(pvc)) out.bound.push(pvc);
      // A claim pre-bound to a PV (volumeName set) waits for the PV controller like an immediate one.
      else if (this.isDelayBinding(pvc) && !pvc.spec.volumeName) out.toBind.push(pvc);
      else out.immediate.push(pvc);
    }
    return out;
  }

  /** FindPodVolumes for one node: the reasons it cannot host the pod's volumes, or what to bind there. */
  findPodVolumes(bound: PersistentVolumeClaim[], toBind: PersistentVolumeClaim[], node: Node): { podVolumes: PodVolumes; reasons: string[] } | string {
    const podVolumes: PodVolumes = { staticBindings: [], dynamicProvisions: [] };
    let boundSatisfied = true;
    let boundPVsFound = true;
    let unboundSatisfied = true;
    let sufficientStorage = true;
    for (const pvc of bound) {
      const pv = this.pvCache.get(pvc.spec.volumeName ?? '');
      if (pv === undefined) {
        boundPVsFound = false;
        break;
      }
      if (!pvNodeAffinityMatches(pv, node)) {
        boundSatisfied = false;
        break;
      }
    }
    // Unbound claims are checked even when a bound one failed: every reason is reported.
    if (toBind.length > 0) {
      const toFind: PersistentVolumeClaim[] = [];
      const toProvision: PersistentVolumeClaim[] = [];
      let fastFail = false;
      for (const claim of toBind) {
        const selected = claim.metadata.annotations?.[this.sn.selectedNodeAnnotation];
        if (selected === undefined) toFind.push(claim);
        else if (selected !== node.metadata.name) {
          // Already being provisioned for another node.
          fastFail = true;
          break;
        } else toProvision.push(claim);
      }
      if (fastFail) unboundSatisfied = false;
      else {
        if (toFind.length > 0) {
          const m = this.findMatchingVolumes(toFind, node);
          if (typeof m === 'string') return m;
          unboundSatisfied = m.unbound.length === 0;
          podVolumes.staticBindings = m.bindings;
          toProvision.push(...m.unbound);
        }
        if (toProvision.length > 0) {
          const p = this.checkVolumeProvisions(toProvision, node);
          if (typeof p === 'string') return p;
          [unboundSatisfied, sufficientStorage] = [p.satisfied, p.sufficient];
          podVolumes.dynamicProvisions = p.provisions;
        }
      }
    }
    const reasons: string[] = [];
    if (!boundSatisfied) reasons.push(ERR_REASON_NODE_CONFLICT);
    if (!unboundSatisfied) reasons.push(ERR_REASON_BIND_CONFLICT);
    if (!sufficientStorage) reasons.push(ERR_REASON_NOT_ENOUGH_SPACE);
    if (!boundPVsFound) reasons.push(ERR_REASON_PV_NOT_EXIST);
    return { podVolumes, reasons };
  }

  /** Smallest-first claims each take the smallest matching PV not chosen yet (pvutil.FindMatchingVolume). */
  private findMatchingVolumes(claims: PersistentVolumeClaim[], node: Node): { bindings: BindingInfo[]; unbound: PersistentVolumeClaim[] } | string {
    const sorted = [...claims].sort((a, b) => storageOf(a.spec.resources?.requests) - storageOf(b.spec.resources?.requests));
    const chosen = new Set<string>();
    const bindings: BindingInfo[] = [];
    const unbound: PersistentVolumeClaim[] = [];
    const all = this.pvCache.list();
    for (const pvc of sorted) {
      const cls = claimClass(pvc, this.sn);
      const candidates = all.filter((pv) => volumeClass(pv, this.sn) === cls);
      const pv = this.findMatchingVolume(pvc, candidates, node, chosen);
      if (typeof pv === 'string') return pv;
      if (pv === undefined) {
        unbound.push(pvc);
        continue;
      }
      chosen.add(pv.metadata.name ?? '');
      bindings.push({ pv, pvc });
    }
    return { bindings, unbound };
  }

  private boundToClaim(pv: PersistentVolume, pvc: PersistentVolumeClaim): boolean {
    const ref = pv.spec.claimRef;
    if (ref === undefined) return false;
    if (ref.name !== pvc.metadata.name || (ref.namespace ?? '') !== (pvc.metadata.namespace ?? '')) return false;
    return !ref.uid || ref.uid === pvc.metadata.uid;
  }

  private findMatchingVolume(
    pvc: PersistentVolumeClaim,
    volumes: PersistentVolume[],
    node: Node,
    excluded: Set<string>,
  ): PersistentVolume | undefined | string {
    const requested = storageOf(pvc.spec.resources?.requests);
    let selector: ((l: Record<string, string> | undefined) => boolean) | undefined;
    if (pvc.spec.selector !== undefined && pvc.spec.selector !== null) {
      try {
        selector = labelSelectorFromObject(pvc.spec.selector);
      } catch (e) {
        return `error creating internal label selector for claim: ${pvc.metadata.namespace}/${pvc.metadata.name}: ${(e as Error).message}`;
      }
    }
    const claimModes = pvc.spec.accessModes ?? [];
    let smallest: PersistentVolume | undefined;
    let smallestQty = 0;
    for (const pv of volumes) {
      if (excluded.has(pv.metadata.name ?? '')) continue;
      if (pv.spec.claimRef !== undefined && !this.boundToClaim(pv, pvc)) continue;
      const qty = storageOf(pv.spec.capacity);
      if (qty < requested) continue;
      if ((pvc.spec.volumeMode ?? 'Filesystem') !== (pv.spec.volumeMode ?? 'Filesystem')) continue;
      if (pv.metadata.deletionTimestamp) continue;
      const affinityOk = pvNodeAffinityMatches(pv, node);
      // A PV pre-bound to this claim is the answer, or there is none on this node.
      if (this.boundToClaim(pv, pvc)) return affinityOk ? pv : undefined;
      if (pv.status?.phase !== 'Available') continue;
      if (selector !== undefined && !selector(pv.metadata.labels)) continue;
      if (!affinityOk) continue;
      const pvModes = new Set(pv.spec.accessModes ?? []);
      if (!claimModes.every((m) => pvModes.has(m))) continue;
      if (smallest === undefined || smallestQty > qty) {
        smallest = pv;
        smallestQty = qty;
      }
    }
    return smallest;
  }

  /** Classes of the claims must provision, and be allowed to in the node's topology. */
  private checkVolumeProvisions(
    claims: PersistentVolumeClaim[],
    node: Node,
  ): { satisfied: boolean; sufficient: boolean; provisions: PersistentVolumeClaim[] } | string {
    const provisions: PersistentVolumeClaim[] = [];
    for (const claim of claims) {
      const name = claimClass(claim, this.sn);
      if (name === '') return `no class for claim "${claim.metadata.namespace}/${claim.metadata.name}"`;
      const sc = this.listers.storageClasses.get(name);
      if (sc === undefined) return `failed to find storage class "${name}"`;
      if (sc.provisioner === '' || sc.provisioner === this.sn.noProvisioner) return { satisfied: false, sufficient: true, provisions: [] };
      if (!matchTopology(sc, node)) return { satisfied: false, sufficient: true, provisions: [] };
      // CSIStorageCapacity is not modelled (no CSIDriver/capacity listers): storage counts as sufficient.
      provisions.push(claim);
    }
    return { satisfied: true, sufficient: true, provisions };
  }

  /** AssumePodVolumes: true when everything was bound already (PreBind then has nothing to do). */
  assumePodVolumes(pod: Pod, nodeName: string, podVolumes: PodVolumes): boolean {
    const claims = this.getPodVolumes(pod);
    if (typeof claims !== 'string' && claims.toBind.length === 0 && claims.immediate.length === 0) return true;
    const newBindings: BindingInfo[] = [];
    for (const b of podVolumes.staticBindings) {
      const pv = this.bindVolumeToClaim(b.pv, b.pvc);
      if (pv !== b.pv) this.pvCache.assume(pv);
      newBindings.push({ pv, pvc: b.pvc });
    }
    const provisioned: PersistentVolumeClaim[] = [];
    for (const claim of podVolumes.dynamicProvisions) {
      const c: PersistentVolumeClaim = {
        ...claim,
        metadata: { ...claim.metadata, annotations: { ...claim.metadata.annotations, [this.sn.selectedNodeAnnotation]: nodeName } },
      };
      this.pvcCache.assume(c);
      provisioned.push(c);
    }
    podVolumes.staticBindings = newBindings;
    podVolumes.dynamicProvisions = provisioned;
    return false;
  }

  /** pvutil.GetBindVolumeToClaim: the PV with claimRef set (the same object when already set). */
  private bindVolumeToClaim(pv: PersistentVolume, pvc: PersistentVolumeClaim): PersistentVolume {
    if (this.boundToClaim(pv, pvc) && pv.spec.claimRef?.uid) return pv;
    const annotations = { ...pv.metadata.annotations };
    if (pv.spec.claimRef === undefined) annotations[this.sn.boundByControllerAnnotation] = 'yes';
    return {
      ...pv,
      metadata: { ...pv.metadata, annotations },
      spec: { ...pv.spec, claimRef: { namespace: pvc.metadata.namespace, name: pvc.metadata.name, uid: pvc.metadata.uid } },
    };
  }

  revertAssumedPodVolumes(podVolumes: PodVolumes): void {
    for (const b of podVolumes.staticBindings) this.pvCache.restore(b.pv.metadata.name ?? '');
    for (const c of podVolumes.dynamicProvisions) this.pvcCache.restore(c.metadata.name ?? '', c.metadata.namespace);
  }

  /** BindPodVolumes: write the bindings, then wait (polling every second) until the claims are bound. */
  async bindPodVolumes(pod: Pod, podVolumes: PodVolumes, client: VolumeBinderClient): Promise<void> {
    try {
      for (const b of podVolumes.staticBindings) await client.bindVolume(b.pvc, b.pv);
      for (const c of podVolumes.dynamicProvisions) await client.provisionVolume(c, pod.spec.nodeName ?? '');
      const deadline = this.clock.now() + this.bindTimeoutMs;
      while (!this.checkBindings(pod, podVolumes)) {
        if (this.clock.now() >= deadline) throw new Error('binding volumes: timed out waiting for the condition');
        await new Promise<void>((resolve) => this.clock.setTimer(1000, resolve));
      }
    } catch (e) {
      this.revertAssumedPodVolumes(podVolumes);
      throw e;
    }
  }

  /** checkBindings: true when every claim is fully bound as intended; throws when retrying scheduling is needed. */
  private checkBindings(pod: Pod, podVolumes: PodVolumes): boolean {
    const nodeName = pod.spec.nodeName ?? '';
    const node = this.listers.nodes.get(nodeName);
    if (node === undefined) throw new Error(`failed to get node "${nodeName}"`);
    if (this.listers.pods.get(pod.metadata.name ?? '', pod.metadata.namespace) === undefined) throw new Error('pod does not exist any more');
    for (const b of podVolumes.staticBindings) {
      const pv = this.pvCache.getAPI(b.pv.metadata.name ?? '');
      const pvc = this.pvcCache.getAPI(b.pvc.metadata.name ?? '', b.pvc.metadata.namespace);
      if (pv === undefined || pvc === undefined) throw new Error('failed to check binding: object not found');
      if (!pvNodeAffinityMatches(pv, node)) throw new Error(`pv "${pv.metadata.name}" node affinity doesn't match node "${nodeName}"`);
      if (!pv.spec.claimRef?.uid) throw new Error(`ClaimRef got reset for pv "${pv.metadata.name}"`);
      if (!this.isPVCFullyBound(pvc)) return false;
    }
    for (const claim of podVolumes.dynamicProvisions) {
      const pvc = this.pvcCache.getAPI(claim.metadata.name ?? '', claim.metadata.namespace);
      if (pvc === undefined) throw new Error(`failed to check provisioning pvc "${claim.metadata.name}"`);
      // The provisioner removes the annotation to hand the claim back to the scheduler.
      if (pvc.metadata.annotations?.[this.sn.selectedNodeAnnotation] !== nodeName) throw new Error(`provisioning failed for PVC "${pvc.metadata.name}"`);
      if (pvc.spec.volumeName) {
        const pv = this.pvCache.getAPI(pvc.spec.volumeName);
        if (pv === undefined) return false;
        if (!pvNodeAffinityMatches(pv, node)) throw new Error(`pv "${pv.metadata.name}" node affinity doesn't match node "${nodeName}"`);
      }
      if (!this.isPVCFullyBound(pvc)) return false;
    }
    return true;
  }
}

/** v1helper.MatchTopologySelectorTerms: no terms allow every node; else some non-empty term's every expression holds. */
export function matchTopology(sc: StorageClass, node: Node): boolean {
  const terms = sc.allowedTopologies ?? [];
  if (terms.length === 0) return true;
  const labels = node.metadata.labels ?? {};
  // An empty term selects nothing.
  return terms.some(
    (t) =>
      (t.matchLabelExpressions ?? []).length > 0 &&
      (t.matchLabelExpressions ?? []).every((r) => Object.hasOwn(labels, r.key) && r.values.includes(labels[r.key])),
  );
}
