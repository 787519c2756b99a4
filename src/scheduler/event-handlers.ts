/**
 * Upstream's eventhandlers.go: how informer events feed the cache and the queue. The simulator
 * calls these from its in-memory store; the scheduler process will call them from client/
 * informers. Unassigned pods of our profiles go to the queue; assigned pods to the cache;
 * cluster changes move unschedulable pods back.
 */
import { deepEqual } from '../machinery/deep-equal.js';
import { ActionType, ASSIGNED_POD_ADD, ASSIGNED_POD_DELETE, ASSIGNED_POD_UPDATE, type EventResource, NODE_ADD, nodeUpdateEvent } from './framework/events.js';
import type { Node, ObjectWithMeta, Pod } from './framework/types.js';
import type { Scheduler } from './scheduler.js';

/** One kind's informer callbacks. */
export interface ResourceEventHandler<T> {
  add(obj: T): void;
  update(oldObj: T, newObj: T): void;
  delete(obj: T): void;
}

export interface SchedulerEventHandlers {
  pods: ResourceEventHandler<Pod>;
  nodes: ResourceEventHandler<Node>;
  /** PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode, Service, PodDisruptionBudget. */
  other(resource: EventResource): ResourceEventHandler<ObjectWithMeta>;
}

const isTerminal = (p: Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
const assigned = (p: Pod) => !!p.spec.nodeName;

/** The handlers that keep a scheduler's cache and queue in step with the cluster. */
export function eventHandlersFor(s: Scheduler): SchedulerEventHandlers {
  const pods: ResourceEventHandler<Pod> = {
    add(pod) {
      if (assigned(pod)) {
        if (isTerminal(pod)) return;
        s.cache.addPod(pod);
        s.queue.assignedPodAddedOrUpdated(pod, ASSIGNED_POD_ADD);
      } else if (s.responsibleForPod(pod) && !isTerminal(pod)) {
        s.queue.add(pod);
      }
    },
    update(oldPod, newPod) {
      if (assigned(newPod)) {
        if (!assigned(oldPod)) {
          // Just bound (by us or another scheduler): it leaves the queue and joins the cache.
          s.queue.delete(oldPod);
          pods.add(newPod);
          return;
        }
        if (isTerminal(newPod)) return pods.delete(newPod);
        s.cache.updatePod(oldPod, newPod);
        s.queue.assignedPodAddedOrUpdated(newPod, ASSIGNED_POD_UPDATE);
      } else if (s.responsibleForPod(newPod)) {
        if (isTerminal(newPod)) s.queue.delete(newPod);
        else if (!s.cache.isAssumedPod(newPod)) s.queue.update(oldPod, newPod);
      }
    },
    delete(pod) {
      if (assigned(pod)) {
        s.cache.removePod(pod);
        s.queue.moveAllToActiveOrBackoffQueue(ASSIGNED_POD_DELETE);
      } else {
        s.queue.delete(pod);
        for (const fwk of s.profiles.values()) fwk.rejectWaitingPod(pod.metadata.uid ?? '');
      }
    },
  };
  const nodes: ResourceEventHandler<Node> = {
    add(node) {
      s.cache.addNode(node);
      s.queue.moveAllToActiveOrBackoffQueue(NODE_ADD);
    },
    update(oldNode, newNode) {
      s.cache.updateNode(oldNode, newNode);
      const action = nodeChange(oldNode, newNode);
      if (action !== 0) s.queue.moveAllToActiveOrBackoffQueue(nodeUpdateEvent(action));
    },
    delete(node) {
      s.cache.removeNode(node);
    },
  };
  const other = (resource: EventResource): ResourceEventHandler<ObjectWithMeta> => ({
    add: () => s.queue.moveAllToActiveOrBackoffQueue({ resource, actionType: ActionType.Add, label: `${resource}Add` }),
    update: () => s.queue.moveAllToActiveOrBackoffQueue({ resource, actionType: ActionType.Update, label: `${resource}Update` }),
    delete: () => s.queue.moveAllToActiveOrBackoffQueue({ resource, actionType: ActionType.Delete, label: `${resource}Delete` }),
  });
  return { pods, nodes, other };
}

/** Upstream's nodeSchedulingPropertiesChange as ActionType bits; 0 when nothing scheduling-relevant changed. */
export function nodeChange(a: Node, b: Node): number {
  let bits = 0;
  if (!deepEqual(a.status?.allocatable ?? null, b.status?.allocatable ?? null)) bits |= ActionType.UpdateNodeAllocatable;
  if (!deepEqual(a.metadata.labels ?? null, b.metadata.labels ?? null)) bits |= ActionType.UpdateNodeLabel;
  if (!deepEqual(a.spec?.taints ?? null, b.spec?.taints ?? null) || !!a.spec?.unschedulable !== !!b.spec?.unschedulable) bits |= ActionType.UpdateNodeTaint;
  if (!deepEqual(a.status?.conditions ?? null, b.status?.conditions ?? null)) bits |= ActionType.UpdateNodeCondition;
  return bits;
}
