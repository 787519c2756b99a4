/**
 * One interface per extension point, in the order a pod meets them. A plugin object implements
 * any subset; the runtime checks at construction that each configured extension point is
 * implemented. Plugins return a Status (SUCCESS when fine) and throw only for bugs: the runtime
 * turns a throw into an Error status naming the plugin.
 */
import type { CycleState } from './cycle-state.js';
import type { ClusterEvent } from './events.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import type { Status } from './status.js';
import type { Pod } from './types.js';

/** Scores a Score plugin may give after normalizing. */
export const MIN_NODE_SCORE = 0;
export const MAX_NODE_SCORE = 100;

export interface Plugin {
  readonly name: string;
  /** Cluster events after which pods this plugin rejected may fit; absent means every event. */
  eventsToRegister?(): ClusterEvent[];
}

/** A pod in the scheduling queue. */
export interface QueuedPodInfo {
  podInfo: PodInfo;
  /** When the pod was (re-)added to the queue, ms. */
  timestamp: number;
  /** Scheduling attempts so far. */
  attempts: number;
  /** When the pod first entered the queue, ms. */
  initialAttemptTimestamp: number;
  /** Plugins that found the pod unschedulable in its last attempt. */
  unschedulablePlugins: Set<string>;
}

export interface QueueSortPlugin extends Plugin {
  /** Strict order of the active queue: true when a pops before b. */
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

/** Incremental updates of a PreFilter's state when preemption or nomination adds/removes a pod. */
export interface PreFilterExtensions {
  addPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status;
  removePod(state: CycleState, podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): Status;
}

export interface PreFilterPlugin extends Plugin {
  /** Once per cycle; Skip makes the runtime skip this plugin's Filter for the cycle. */
  preFilter(state: CycleState, pod: Pod): Status;
  preFilterExtensions?(): PreFilterExtensions | undefined;
}

export interface FilterPlugin extends Plugin {
  /** Once per candidate node; must not change nodeInfo. */
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status;
}

/** Statuses of the nodes that failed Filter, by node name. */
export type NodeToStatusMap = Map<string, Status>;

export interface PostFilterResult {
  status: Status;
  /** Node the pod is nominated to (preemption), if any. */
  nominatedNodeName?: string;
}

export interface PostFilterPlugin extends Plugin {
  /** Runs only when no node fits; Success means it made room (e.g. preempted victims). */
  postFilter(state: CycleState, pod: Pod, filteredNodeStatuses: NodeToStatusMap): PostFilterResult | Promise<PostFilterResult>;
}

export interface PreScorePlugin extends Plugin {
  /** Once per cycle with the feasible nodes; Skip makes the runtime skip this plugin's Score. */
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status;
}

export interface NodeScore {
  name: string;
  score: number;
}

export interface ScorePlugin extends Plugin {
  /** Raw score of one feasible node; 0–100 unless normalizeScore maps it there. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number;
  /** Rewrites scores in place into [MIN_NODE_SCORE, MAX_NODE_SCORE]. */
  normalizeScore?(state: CycleState, pod: Pod, scores: NodeScore[]): Status;
}

export interface ReservePlugin extends Plugin {
  /** Claims what the pod will use on the node; Unreserve must undo it if a later step fails. */
  reserve(state: CycleState, pod: Pod, nodeName: string): Status;
  /** Idempotent; runs in reverse order on failure. */
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

export interface PermitResult {
  status: Status;
  /** With Wait: how long to wait before rejecting, ms. */
  timeoutMs?: number;
}

export interface PermitPlugin extends Plugin {
  permit(state: CycleState, pod: Pod, nodeName: string): PermitResult;
}

export interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: Pod, nodeName: string): Status | Promise<Status>;
}

export interface BindPlugin extends Plugin {
  /** Skip passes the pod to the next bind plugin. */
  bind(state: CycleState, pod: Pod, nodeName: string): Status | Promise<Status>;
}

export interface PostBindPlugin extends Plugin {
  /** Informational, after a successful bind. */
  postBind(state: CycleState, pod: Pod, nodeName: string): void;
}

/** The extension points, as named in configuration. */
export const EXTENSION_POINTS = [
  'queueSort',
  'preFilter',
  'filter',
  'postFilter',
  'preScore',
  'score',
  'reserve',
  'permit',
  'preBind',
  'bind',
  'postBind',
] as const;

export type ExtensionPoint = (typeof EXTENSION_POINTS)[number];

/** The method that marks a plugin as implementing an extension point. */
export const EXTENSION_METHOD: Readonly<Record<ExtensionPoint, string>> = {
  queueSort: 'less',
  preFilter: 'preFilter',
  filter: 'filter',
  postFilter: 'postFilter',
  preScore: 'preScore',
  score: 'score',
  reserve: 'reserve',
  permit: 'permit',
  preBind: 'preBind',
  bind: 'bind',
  postBind: 'postBind',
};
