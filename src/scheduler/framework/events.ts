/**
 * Cluster events that may make an unschedulable pod schedulable. A plugin lists the events it
 * cares about (eventsToRegister); the queue moves a pod back only for events one of the
 * plugins that rejected it registered, as upstream's clusterEventMap.
 */

export type EventResource =
  | 'Pod'
  | 'Node'
  | 'PersistentVolume'
  | 'PersistentVolumeClaim'
  | 'StorageClass'
  | 'CSINode'
  | 'Service'
  | 'PodDisruptionBudget'
  | '*';

/** Bit flags, as upstream's ActionType. */
export const ActionType = {
  Add: 1,
  Delete: 2,
  UpdateNodeAllocatable: 4,
  UpdateNodeLabel: 8,
  UpdateNodeTaint: 16,
  UpdateNodeCondition: 32,
  /** Any update (node updates are split by what changed). */
  Update: 4 | 8 | 16 | 32 | 64,
  All: 127,
} as const;

export interface ClusterEvent {
  readonly resource: EventResource;
  /** ActionType bits. */
  readonly actionType: number;
  /** Label for metrics and logs. */
  readonly label: string;
}

/** True when the registered event covers the one that happened. */
export function eventMatches(registered: ClusterEvent, happened: ClusterEvent): boolean {
  // A wildcard event (timeout, forced move) concerns every pod.
  if (happened.resource === '*') return true;
  if (registered.resource !== '*' && registered.resource !== happened.resource) return false;
  return (registered.actionType & happened.actionType) !== 0;
}

export const ASSIGNED_POD_ADD: ClusterEvent = { resource: 'Pod', actionType: ActionType.Add, label: 'AssignedPodAdd' };
export const ASSIGNED_POD_UPDATE: ClusterEvent = { resource: 'Pod', actionType: ActionType.Update, label: 'AssignedPodUpdate' };
export const ASSIGNED_POD_DELETE: ClusterEvent = { resource: 'Pod', actionType: ActionType.Delete, label: 'AssignedPodDelete' };
export const NODE_ADD: ClusterEvent = { resource: 'Node', actionType: ActionType.Add, label: 'NodeAdd' };
export const NODE_DELETE: ClusterEvent = { resource: 'Node', actionType: ActionType.Delete, label: 'NodeDelete' };
/** Fired after unschedulable pods waited the maximum time; every pod moves. */
export const UNSCHEDULABLE_TIMEOUT: ClusterEvent = { resource: '*', actionType: ActionType.All, label: 'UnschedulableTimeout' };
/** Fired when the cluster changed in a way the scheduler cannot attribute (e.g. a forced move). */
export const WILDCARD_EVENT: ClusterEvent = { resource: '*', actionType: ActionType.All, label: 'WildCardEvent' };

/** Node update events, split by what changed so plugins can ignore the rest. */
export function nodeUpdateEvent(actionType: number): ClusterEvent {
  return { resource: 'Node', actionType, label: 'NodeUpdate' };
}
