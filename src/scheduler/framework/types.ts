/**
 * Typed views of the API objects the scheduler reads. Objects stay the plain JSON the API
 * serves (core/v1, scheduling/v1, policy/v1, storage/v1); these interfaces name only the
 * fields scheduling needs and never imply a copy. Quantities stay strings (or numbers) here;
 * they become numbers once, in PodInfo and NodeInfo.
 */
import type { LabelSelector } from '../../machinery/label-selector.js';
import type { ObjectMeta } from '../../machinery/object.js';

/** A resource list as served: `{cpu: "100m", memory: "1Gi"}`. */
export type ResourceList = Readonly<Record<string, string | number>>;

export interface ObjectWithMeta {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: string;
}

export interface Container {
  name: string;
  image?: string;
  ports?: ContainerPort[];
  resources?: { requests?: ResourceList; limits?: ResourceList };
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal' | string;
  value?: string;
  effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' | string;
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' | string;
  timeAdded?: string;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt' | string;
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector | null;
  namespaces?: string[];
  namespaceSelector?: LabelSelector | null;
  topologyKey: string;
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] };
    preferredDuringSchedulingIgnoredDuringExecution?: { weight: number; preference: NodeSelectorTerm }[];
  };
  podAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
  };
  podAntiAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
  };
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway' | string;
  labelSelector?: LabelSelector | null;
}

export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  gcePersistentDisk?: { pdName: string; readOnly?: boolean };
  awsElasticBlockStore?: { volumeID: string; readOnly?: boolean };
  azureDisk?: { diskName: string; diskURI?: string };
  cinder?: { volumeID: string };
  iscsi?: { targetPortal: string; iqn: string; lun: number; readOnly?: boolean };
  rbd?: { monitors: string[]; image: string; pool?: string; readOnly?: boolean };
  csi?: { driver: string };
  ephemeral?: unknown;
  [source: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  schedulerName?: string;
  priority?: number;
  priorityClassName?: string;
  preemptionPolicy?: 'PreemptLowerPriority' | 'Never' | string;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  containers: Container[];
  initContainers?: Container[];
  overhead?: ResourceList;
  volumes?: Volume[];
  hostNetwork?: boolean;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
}

export interface Pod extends ObjectWithMeta {
  spec: PodSpec;
  status?: { phase?: string; nominatedNodeName?: string; conditions?: PodCondition[]; [k: string]: unknown };
}

export interface ContainerImage {
  names?: string[];
  sizeBytes?: number;
}

export interface Node extends ObjectWithMeta {
  spec?: { unschedulable?: boolean; taints?: Taint[]; podCIDR?: string; providerID?: string };
  status?: {
    capacity?: ResourceList;
    allocatable?: ResourceList;
    conditions?: { type: string; status: string }[];
    images?: ContainerImage[];
    [k: string]: unknown;
  };
}

export interface PriorityClass extends ObjectWithMeta {
  value: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

export interface PodDisruptionBudget extends ObjectWithMeta {
  spec?: { selector?: LabelSelector | null; minAvailable?: number | string; maxUnavailable?: number | string };
  status?: { disruptionsAllowed?: number; disruptedPods?: Record<string, string>; currentHealthy?: number; desiredHealthy?: number; expectedPods?: number };
}

export interface PersistentVolume extends ObjectWithMeta {
  spec: {
    capacity?: ResourceList;
    accessModes?: string[];
    storageClassName?: string;
    claimRef?: { namespace?: string; name?: string; uid?: string };
    nodeAffinity?: { required?: { nodeSelectorTerms: NodeSelectorTerm[] } };
    volumeMode?: string;
    csi?: { driver: string; volumeHandle: string };
    [source: string]: unknown;
  };
  status?: { phase?: string };
}

export interface PersistentVolumeClaim extends ObjectWithMeta {
  spec: {
    accessModes?: string[];
    resources?: { requests?: ResourceList };
    storageClassName?: string | null;
    volumeName?: string;
    volumeMode?: string;
    selector?: LabelSelector | null;
  };
  status?: { phase?: string };
}

export interface StorageClass extends ObjectWithMeta {
  provisioner: string;
  volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer' | string;
  allowedTopologies?: { matchLabelExpressions?: { key: string; values: string[] }[] }[];
  parameters?: Record<string, string>;
}

export interface CSINode extends ObjectWithMeta {
  spec: { drivers: { name: string; nodeID: string; topologyKeys?: string[]; allocatable?: { count?: number } }[] };
}

/** `namespace/name`, the key upstream's cache and queue use for a pod. */
export function podKey(pod: ObjectWithMeta): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}

/** The pod's UID, falling back to its key for objects built without one (tests). */
export function podUID(pod: ObjectWithMeta): string {
  return pod.metadata.uid ?? podKey(pod);
}

/** spec.priority, 0 when unset, as upstream's corev1helpers.PodPriority. */
export function podPriority(pod: Pod): number {
  return pod.spec.priority ?? 0;
}
