/**
 * Volume helpers of upstream's storage/volume, pvutil and ephemeral packages that the volume
 * plugins share: claim and volume classes, PV node affinity, generic ephemeral claims, the
 * well-known storage annotations under the brand's domain and lister-style not-found errors.
 */
import type {
  ObjectWithMeta,
  Node,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  Volume,
} from '../../framework/types.js';
import type { WellKnownNames } from '../../framework/well-known.js';

/** Storage annotation keys; the kube brand gives upstream's exact names. */
export interface StorageNames {
  /** `volume.beta.<domain>/storage-class`, the beta class annotation still honoured in 1.21. */
  readonly betaStorageClassAnnotation: string;
  /** `pv.<domain>/bind-completed`: the PV controller finished binding the claim. */
  readonly bindCompletedAnnotation: string;
  /** `pv.<domain>/bound-by-controller`: the PV controller (or scheduler) set claimRef. */
  readonly boundByControllerAnnotation: string;
  /** `volume.<domain>/selected-node`: the node a WaitForFirstConsumer claim is provisioned for. */
  readonly selectedNodeAnnotation: string;
  /** `<domain>/no-provisioner`: a class that never provisions (local volumes). */
  readonly noProvisioner: string;
  /** `storageclass.storage.<api domain>`, the resource named in a StorageClass NotFound message. */
  readonly storageClassResource: string;
}

export function storageNames(names: WellKnownNames): StorageNames {
  const d = names.labelDomain;
  return {
    betaStorageClassAnnotation: `volume.beta.${d}/storage-class`,
    bindCompletedAnnotation: `pv.${d}/bind-completed`,
    boundByControllerAnnotation: `pv.${d}/bound-by-controller`,
    selectedNodeAnnotation: `volume.${d}/selected-node`,
    noProvisioner: `${d}/no-provisioner`,
    // API groups use the brand's API domain: k8s.io for Kubernetes' own label domain.
    storageClassResource: `storageclass.storage.${d === 'kubernetes.io' ? 'k8s.io' : d}`,
  };
}

/** The informer lister's NotFound message (`persistentvolumeclaim "x" not found`). */
export function notFound(resource: string, name: string): string {
  return `${resource} "${name}" not found`;
}

/** GetPersistentVolumeClaimClass: the beta annotation wins over spec.storageClassName; "" for none. */
export function claimClass(pvc: PersistentVolumeClaim, sn: StorageNames): string {
  const a = pvc.metadata.annotations?.[sn.betaStorageClassAnnotation];
  if (a !== undefined) return a;
  return pvc.spec.storageClassName ?? '';
}

/** GetPersistentVolumeClass: the beta annotation wins over spec.storageClassName. */
export function volumeClass(pv: PersistentVolume, sn: StorageNames): string {
  const a = pv.metadata.annotations?.[sn.betaStorageClassAnnotation];
  if (a !== undefined) return a;
  return pv.spec.storageClassName ?? '';
}

/** ephemeral.VolumeClaimName: the claim a generic ephemeral volume gets, `<pod>-<volume>`. */
export function ephemeralClaimName(pod: Pod, vol: Volume): string {
  return `${pod.metadata.name ?? ''}-${vol.name}`;
}

/** ephemeral.VolumeIsForPod: the claim must be controlled by the pod, or it is someone else's. */
export function ephemeralClaimError(pod: Pod, pvc: ObjectWithMeta): string | undefined {
  const owner = pvc.metadata.ownerReferences?.find((r) => r.controller === true);
  if (owner !== undefined && owner.uid === pod.metadata.uid) return undefined;
  const ns = pod.metadata.namespace ?? '';
  return `PVC ${ns}/${pvc.metadata.name ?? ''} was not created for pod ${ns}/${pod.metadata.name ?? ''} (pod is not owner)`;
}

/** The claim a volume uses: a PVC by name or a generic ephemeral claim; undefined for other sources. */
export function volumeClaim(pod: Pod, vol: Volume): { name: string; ephemeral: boolean } | undefined {
  if (vol.persistentVolumeClaim !== undefined) return { name: vol.persistentVolumeClaim.claimName, ephemeral: false };
  if (vol.ephemeral !== undefined && vol.ephemeral !== null) return { name: ephemeralClaimName(pod, vol), ephemeral: true };
  return undefined;
}

function matchRequirement(req: NodeSelectorRequirement, value: string | undefined): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      // Upstream requires exactly one integer value; anything else makes the term invalid.
      if (value === undefined || values.length !== 1 || !/^-?\d+$/.test(values[0]) || !/^-?\d+$/.test(value)) return false;
      const have = Number(value);
      const want = Number(values[0]);
      return req.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/** One NodeSelectorTerm: every expression on labels and every field (metadata.name) requirement holds. */
export function matchNodeSelectorTerm(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  // An empty term selects no node, as upstream's MatchNodeSelectorTerms.
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  for (const r of exprs) if (!matchRequirement(r, Object.hasOwn(labels, r.key) ? labels[r.key] : undefined)) return false;
  for (const r of fields) {
    if (r.key !== 'metadata.name' || (r.operator !== 'In' && r.operator !== 'NotIn')) return false;
    if (!matchRequirement(r, node.metadata.name)) return false;
  }
  return true;
}

/** volumeutil.CheckNodeAffinity: true when the PV has no required node affinity or the node satisfies a term. */
export function pvNodeAffinityMatches(pv: PersistentVolume, node: Node): boolean {
  const req = pv.spec.nodeAffinity?.required;
  if (req === undefined) return true;
  return (req.nodeSelectorTerms ?? []).some((t) => matchNodeSelectorTerm(t, node));
}
