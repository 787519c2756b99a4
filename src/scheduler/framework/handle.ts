/**
 * What plugins may see of the world: the cycle's snapshot, informer-like listers of API
 * objects, the nominator, and the few writes plugins make (bind, delete victims, nominate).
 * The simulator implements these in memory; the scheduler process will implement them with
 * client/ informers and the REST client, unchanged for plugins.
 */
import type { SchedulerRecorder } from '../metric-recorder.js';
import type { Clock } from './clock.js';
import type { CycleState } from './cycle-state.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import type { NodeInfoLister } from './snapshot.js';
import type { Status } from './status.js';
import type {
  CSINode,
  Node,
  ObjectWithMeta,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodCondition,
  PodDisruptionBudget,
  PriorityClass,
  StorageClass,
} from './types.js';
import type { WellKnownNames } from './well-known.js';

/** An informer's lister: the latest objects seen, read-only, never copied. */
export interface ObjectLister<T extends ObjectWithMeta> {
  list(): readonly T[];
  /** Objects of one namespace (all of them for cluster-scoped kinds). */
  listInNamespace(namespace: string): readonly T[];
  /** By name; namespace for namespaced kinds. */
  get(name: string, namespace?: string): T | undefined;
}

/** Workload objects PodTopologySpread / SelectorSpread read for default selectors. */
export interface SelectorObject extends ObjectWithMeta {
  spec?: { selector?: unknown; [k: string]: unknown };
}

export interface Listers {
  readonly pods: ObjectLister<Pod>;
  readonly nodes: ObjectLister<Node>;
  readonly priorityClasses: ObjectLister<PriorityClass>;
  readonly podDisruptionBudgets: ObjectLister<PodDisruptionBudget>;
  readonly persistentVolumes: ObjectLister<PersistentVolume>;
  readonly persistentVolumeClaims: ObjectLister<PersistentVolumeClaim>;
  readonly storageClasses: ObjectLister<StorageClass>;
  readonly csiNodes: ObjectLister<CSINode>;
  readonly services: ObjectLister<SelectorObject>;
  readonly replicationControllers: ObjectLister<SelectorObject>;
  readonly replicaSets: ObjectLister<SelectorObject>;
  readonly statefulSets: ObjectLister<SelectorObject>;
}

/** The core/v1 Binding a bind posts to pods/<name>/binding. */
export interface Binding {
  apiVersion: 'v1';
  kind: 'Binding';
  metadata: { namespace: string; name: string; uid?: string };
  target: { kind: 'Node'; name: string };
}

/** Posts bindings; rejects with the API error when the server refuses. */
export interface Binder {
  bind(binding: Binding): Promise<void>;
}

/** The writes the scheduler makes besides binding. */
export interface SchedulerClient {
  /** Sets the PodScheduled condition and, when given, status.nominatedNodeName ("" clears it). */
  updatePodStatus(pod: Pod, condition: PodCondition, nominatedNodeName?: string): Promise<void>;
  /** Deletes a pod (preemption victims). */
  deletePod(pod: Pod): Promise<void>;
}

export type EventType = 'Normal' | 'Warning';

/** Records events about pods (Scheduled, FailedScheduling, Preempted). */
export interface EventRecorder {
  /** `related` is a second object involved (the preemptor of a Preempted victim). */
  event(regarding: ObjectWithMeta, type: EventType, reason: string, action: string, message: string, related?: ObjectWithMeta): void;
}

/** Pods nominated to nodes by preemption; later cycles count them as if running there. */
export interface PodNominator {
  addNominatedPod(pi: PodInfo, nodeName: string): void;
  deleteNominatedPodIfExists(pod: Pod): void;
  updateNominatedPod(oldPod: Pod, newPodInfo: PodInfo): void;
  nominatedPodsForNode(nodeName: string): readonly PodInfo[];
  /** True when no pod is nominated to any node; optional, a fast path for filtering. */
  isEmpty?(): boolean;
}

/** A pod held at Permit; plugins allow or reject it by name. */
export interface WaitingPod {
  readonly pod: Pod;
  pendingPlugins(): string[];
  allow(pluginName: string): void;
  reject(pluginName: string, message: string): void;
}

/** What a plugin factory receives: read access to the cluster and the framework's own runs. */
export interface FrameworkHandle {
  readonly profileName: string;
  readonly names: WellKnownNames;
  readonly clock: Clock;
  readonly listers: Listers;
  readonly binder: Binder;
  readonly client: SchedulerClient;
  readonly eventRecorder: EventRecorder;
  readonly nominator: PodNominator;
  /** Where plugins record their metrics (preemption attempts and victims); absent in tests. */
  readonly metrics?: SchedulerRecorder;
  /** The snapshot of the cycle in progress. */
  snapshotSharedLister(): NodeInfoLister;
  /** Filter plugins with equal-or-higher priority nominated pods added, as the scheduling cycle runs them. */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status;
  runPreFilterExtensionAddPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status;
  runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): Status;
  getWaitingPod(uid: string): WaitingPod | undefined;
  iterateOverWaitingPods(fn: (wp: WaitingPod) => void): void;
  rejectWaitingPod(uid: string): boolean;
}
