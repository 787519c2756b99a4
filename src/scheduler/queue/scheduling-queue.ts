/**
 * The scheduling queue, as upstream's PriorityQueue: activeQ (ordered by the QueueSort plugin)
 * holds pods to try now; backoffQ holds pods waiting out their backoff (1 s doubling to 10 s);
 * the unschedulable set holds pods that failed until a cluster event one of their rejecting
 * plugins registered moves them, or until they have waited 5 minutes. Time comes from the
 * injected clock and moves happen in flush(), which pop() runs first: nothing sleeps.
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import type { Clock } from '../framework/clock.js';
import { type ClusterEvent, eventMatches, UNSCHEDULABLE_TIMEOUT } from '../framework/events.js';
import type { QueuedPodInfo } from '../framework/interfaces.js';
import { PodInfo } from '../framework/pod-info.js';
import { type Pod, podUID } from '../framework/types.js';
import { BACKOFF_COMPLETE, NOOP_RECORDER, POD_ADD, SCHEDULE_ATTEMPT_FAILURE, type SchedulerRecorder } from '../metric-recorder.js';
import { affinityTermsMatch } from './affinity-match.js';
import { KeyedHeap } from './heap.js';
import { Nominator } from './nominator.js';

export interface QueueOptions {
  clock: Clock;
  /** The QueueSort plugin's order (true when a pops before b). */
  less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** How long a pod may stay unschedulable before it is retried anyway. */
  maxUnschedulableMs?: number;
  /** Events each plugin registered; plugins absent here react to every event. */
  pluginEvents?: ReadonlyMap<string, readonly ClusterEvent[]>;
  /** scheduler_queue_incoming_pods_total; default records nothing. */
  recorder?: SchedulerRecorder;
}

export const DEFAULT_INITIAL_BACKOFF_MS = 1000;
export const DEFAULT_MAX_BACKOFF_MS = 10_000;
export const DEFAULT_MAX_UNSCHEDULABLE_MS = 5 * 60 * 1000;

const uidOf = (q: QueuedPodInfo) => q.podInfo.uid;

export class SchedulingQueue {
  readonly nominator = new Nominator();
  private readonly clock: Clock;
  private readonly activeQ: KeyedHeap<QueuedPodInfo>;
  private readonly backoffQ: KeyedHeap<QueuedPodInfo>;
  private readonly unschedulable = new Map<string, QueuedPodInfo>();
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxUnschedulableMs: number;
  private readonly pluginEvents: ReadonlyMap<string, readonly ClusterEvent[]>;
  private readonly recorder: SchedulerRecorder;
  /** Incremented by every pop; a pod's attempt belongs to the cycle it was popped in. */
  schedulingCycle = 0;
  /** The cycle in which the last move request happened: pods failing in an earlier cycle go to backoff, not unschedulable. */
  private moveRequestCycle = -1;

  constructor(opts: QueueOptions) {
    this.clock = opts.clock;
    this.activeQ = new KeyedHeap(uidOf, opts.less);
    this.backoffQ = new KeyedHeap(uidOf, (a, b) => this.backoffExpiry(a) < this.backoffExpiry(b));
    this.initialBackoffMs = opts.initialBackoffMs ?? DEFAULT_INITIAL_BACKOFF_MS;
    this.maxBackoffMs = opts.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
    this.maxUnschedulableMs = opts.maxUnschedulableMs ?? DEFAULT_MAX_UNSCHEDULABLE_MS;
    this.pluginEvents = opts.pluginEvents ?? new Map();
    this.recorder = opts.recorder ?? NOOP_RECORDER;
  }

  /** A new pending pod goes to activeQ (and out of the other queues). */
  add(pod: Pod): void {
    const qpi = this.newQueuedPodInfo(new PodInfo(pod));
    this.backoffQ.delete(qpi.podInfo.uid);
    this.unschedulable.delete(qpi.podInfo.uid);
    this.activeQ.addOrUpdate(qpi);
    this.recorder.incoming('active', POD_ADD);
    this.nominator.addNominatedPod(qpi.podInfo, '');
  }

  /**
   * Returns a pod whose attempt failed. If a move request came during or after its cycle the
   * pod goes to backoffQ (the change may have made it schedulable), else to unschedulable.
   */
  addUnschedulableIfNotPresent(qpi: QueuedPodInfo, podSchedulingCycle: number): void {
    const uid = qpi.podInfo.uid;
    if (this.activeQ.has(uid) || this.backoffQ.has(uid) || this.unschedulable.has(uid)) return;
    qpi.timestamp = this.clock.now();
    if (this.moveRequestCycle >= podSchedulingCycle) {
      this.backoffQ.addOrUpdate(qpi);
      this.recorder.incoming('backoff', SCHEDULE_ATTEMPT_FAILURE);
    } else {
      this.unschedulable.set(uid, qpi);
      this.recorder.incoming('unschedulable', SCHEDULE_ATTEMPT_FAILURE);
    }
    this.nominator.addNominatedPod(qpi.podInfo, '');
  }

  /** The next pod to schedule, or undefined when activeQ is empty after flushing due pods. */
  pop(): QueuedPodInfo | undefined {
    this.flush();
    const qpi = this.activeQ.pop();
    if (qpi === undefined) return undefined;
    qpi.attempts++;
    this.schedulingCycle++;
    return qpi;
  }

  /** Moves backoff-completed pods to activeQ and long-unschedulable pods out of the unschedulable set. */
  flush(): void {
    const now = this.clock.now();
    for (let top = this.backoffQ.peek(); top !== undefined && this.backoffExpiry(top) <= now; top = this.backoffQ.peek()) {
      this.backoffQ.pop();
      this.activeQ.addOrUpdate(top);
      this.recorder.incoming('active', BACKOFF_COMPLETE);
    }
    let stale: QueuedPodInfo[] | undefined;
    for (const qpi of this.unschedulable.values()) if (now - qpi.timestamp > this.maxUnschedulableMs) (stale ??= []).push(qpi);
    if (stale !== undefined) this.movePods(stale, UNSCHEDULABLE_TIMEOUT);
  }

  /** A pending pod changed: update it in place, or retry it if its spec changed while unschedulable. */
  update(oldPod: Pod, newPod: Pod): void {
    const uid = podUID(newPod);
    const pi = new PodInfo(newPod);
    for (const q of [this.activeQ, this.backoffQ]) {
      const existing = q.get(uid);
      if (existing !== undefined) {
        this.nominator.updateNominatedPod(oldPod, pi);
        existing.podInfo = pi;
        q.addOrUpdate(existing);
        return;
      }
    }
    const us = this.unschedulable.get(uid);
    if (us !== undefined) {
      this.nominator.updateNominatedPod(oldPod, pi);
      us.podInfo = pi;
      if (podChanged(oldPod, newPod)) {
        this.unschedulable.delete(uid);
        if (this.isBackingOff(us)) this.backoffQ.addOrUpdate(us);
        else this.activeQ.addOrUpdate(us);
      }
      return;
    }
    this.add(newPod);
  }

  delete(pod: Pod): void {
    const uid = podUID(pod);
    this.nominator.deleteNominatedPodIfExists(pod);
    this.activeQ.delete(uid);
    this.backoffQ.delete(uid);
    this.unschedulable.delete(uid);
  }

  /** A cluster event happened: move the unschedulable pods it may help. */
  moveAllToActiveOrBackoffQueue(event: ClusterEvent): void {
    this.movePods([...this.unschedulable.values()], event);
  }

  /**
   * An assigned pod was added or updated: move only unschedulable pods whose required pod
   * affinity it may satisfy (other plugins' reasons are not changed by a pod arriving).
   */
  assignedPodAddedOrUpdated(pod: Pod, event: ClusterEvent): void {
    const matching: QueuedPodInfo[] = [];
    for (const qpi of this.unschedulable.values()) if (affinityTermsMatch(qpi.podInfo, pod)) matching.push(qpi);
    this.movePods(matching, event);
  }

  private movePods(pods: readonly QueuedPodInfo[], event: ClusterEvent): void {
    for (const qpi of pods) {
      if (!this.podMatchesEvent(qpi, event)) continue;
      this.unschedulable.delete(qpi.podInfo.uid);
      const backingOff = this.isBackingOff(qpi);
      if (backingOff) this.backoffQ.addOrUpdate(qpi);
      else this.activeQ.addOrUpdate(qpi);
      this.recorder.incoming(backingOff ? 'backoff' : 'active', event.label);
    }
    this.moveRequestCycle = this.schedulingCycle;
  }

  private podMatchesEvent(qpi: QueuedPodInfo, event: ClusterEvent): boolean {
    if (event.resource === '*' || qpi.unschedulablePlugins.size === 0) return true;
    for (const name of qpi.unschedulablePlugins) {
      const registered = this.pluginEvents.get(name);
      if (registered === undefined) return true;
      for (const r of registered) if (eventMatches(r, event)) return true;
    }
    return false;
  }

  /** Upstream's calculateBackoffDuration: initial × 2^(attempts−1), capped at the maximum. */
  backoffDuration(qpi: QueuedPodInfo): number {
    let d = this.initialBackoffMs;
    for (let i = 1; i < qpi.attempts; i++) {
      d *= 2;
      if (d > this.maxBackoffMs) return this.maxBackoffMs;
    }
    return d;
  }

  private backoffExpiry(qpi: QueuedPodInfo): number {
    return qpi.timestamp + this.backoffDuration(qpi);
  }

  private isBackingOff(qpi: QueuedPodInfo): boolean {
    return this.backoffExpiry(qpi) > this.clock.now();
  }

  /** When the earliest backoff ends (ms), so a driver can sleep until then; undefined if none. */
  nextBackoffExpiry(): number | undefined {
    const top = this.backoffQ.peek();
    return top === undefined ? undefined : this.backoffExpiry(top);
  }

  /** Counts per sub-queue, for metrics and tests. */
  lengths(): { active: number; backoff: number; unschedulable: number } {
    return { active: this.activeQ.size, backoff: this.backoffQ.size, unschedulable: this.unschedulable.size };
  }

  /** Every pending pod in any sub-queue. */
  pendingPods(): Pod[] {
    const out: Pod[] = [];
    for (const q of this.activeQ.list()) out.push(q.podInfo.pod);
    for (const q of this.backoffQ.list()) out.push(q.podInfo.pod);
    for (const q of this.unschedulable.values()) out.push(q.podInfo.pod);
    return out;
  }

  private newQueuedPodInfo(podInfo: PodInfo): QueuedPodInfo {
    const now = this.clock.now();
    return { podInfo, timestamp: now, attempts: 0, initialAttemptTimestamp: now, unschedulablePlugins: new Set() };
  }
}

// Upstream's isPodUpdated: a change other than status / resourceVersion / generation.
function podChanged(a: Pod, b: Pod): boolean {
  const strip = (p: Pod) => ({ ...p.metadata, resourceVersion: undefined, generation: undefined, managedFields: undefined });
  return !deepEqual(a.spec, b.spec) || !deepEqual(strip(a), strip(b));
}
