/**
 * The pure parts of upstream 1.21's preemption: who may preempt, which nodes are worth a dry
 * run, and which candidate wins (pickOneNodeForPreemption).
 */
import type { NodeToStatusMap } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { NodeInfoLister } from '../../framework/snapshot.js';
import { Code, type Status, unresolvable } from '../../framework/status.js';
import { type Pod, podPriority } from '../../framework/types.js';
import { podStartTime, type Victims } from './victims.js';

/** A node the preemptor could be nominated to, with the pods that must go first. */
export interface Candidate {
  name: string;
  victims: Victims;
}

/** Reason given to nodes whose failure preemption cannot fix. */
export const REASON_PREEMPTION_NOT_HELPFUL = 'Preemption is not helpful for scheduling';

/**
 * Upstream's PodEligibleToPreemptOthers: not with preemptionPolicy Never, nor while a lower-
 * priority pod on the node it is already nominated to is still terminating (its earlier
 * preemption is in progress) — unless that node is now unresolvable for it.
 */
export function podEligibleToPreemptOthers(pod: Pod, nodeInfos: NodeInfoLister, nominatedNodeStatus: Status | undefined): boolean {
  if (pod.spec.preemptionPolicy === 'Never') return false;
  const nominated = pod.status?.nominatedNodeName;
  if (nominated) {
    if (nominatedNodeStatus?.code === Code.UnschedulableAndUnresolvable) return true;
    const ni = nodeInfos.get(nominated);
    if (ni !== undefined) {
      const priority = podPriority(pod);
      for (const p of ni.pods) if (p.pod.metadata.deletionTimestamp && p.priority < priority) return false;
    }
  }
  return true;
}

/**
 * Upstream's nodesWherePreemptionMightHelp: every node whose Filter failure was not
 * UnschedulableAndUnresolvable (nodes absent from the map included), and a status for the rest.
 */
export function nodesWherePreemptionMightHelp(nodes: readonly NodeInfo[], m: NodeToStatusMap): { potential: NodeInfo[]; statuses: NodeToStatusMap } {
  const potential: NodeInfo[] = [];
  const statuses: NodeToStatusMap = new Map();
  for (const n of nodes) {
    if (m.get(n.name)?.code === Code.UnschedulableAndUnresolvable) {
      statuses.set(n.name, unresolvable(REASON_PREEMPTION_NOT_HELPFUL));
      continue;
    }
    potential.push(n);
  }
  return { potential, statuses };
}

/** Highest victim priority; a candidate without victims ranks below any (upstream would index an empty list). */
function highestPriority(v: Victims): number {
  return v.pods.length > 0 ? podPriority(v.pods[0]) : Number.NEGATIVE_INFINITY;
}

/** Upstream's GetEarliestPodStartTime: earliest start among the highest-priority victims. */
export function earliestStartOfHighestPriority(v: Victims, now: number): number | undefined {
  if (v.pods.length === 0) return undefined;
  let max = podPriority(v.pods[0]);
  let earliest = podStartTime(v.pods[0], now);
  for (const p of v.pods) {
    const pr = podPriority(p);
    const st = podStartTime(p, now);
    if (pr === max) {
      if (st < earliest) earliest = st;
    } else if (pr > max) {
      max = pr;
      earliest = st;
    }
  }
  return earliest;
}

/** Keeps the candidates minimizing key (ties kept in order). */
function keepMin(cs: Candidate[], key: (c: Candidate) => number): Candidate[] {
  let min = Number.POSITIVE_INFINITY;
  let out: Candidate[] = [];
  for (const c of cs) {
    const k = key(c);
    if (k < min) {
      min = k;
      out = [c];
    } else if (k === min) out.push(c);
  }
  return out;
}

/** 2^31, added to each priority so sums compare as upstream's int64 arithmetic (never negative). */
const PRIORITY_OFFSET = 2 ** 31;

/**
 * Upstream's pickOneNodeForPreemption, victims ordered most important first: fewest PDB
 * violations; lowest highest-priority victim; lowest sum of (priority + 2^31); fewest victims;
 * latest earliest-start among highest-priority victims; then the first in order.
 */
export function pickOneNodeForPreemption(candidates: readonly Candidate[], now: number): Candidate | undefined {
  if (candidates.length === 0) return undefined;
  let cs = keepMin(candidates.slice(), (c) => c.victims.numPDBViolations);
  if (cs.length === 1) return cs[0];
  cs = keepMin(cs, (c) => highestPriority(c.victims));
  if (cs.length === 1) return cs[0];
  cs = keepMin(cs, (c) => c.victims.pods.reduce((sum, p) => sum + podPriority(p) + PRIORITY_OFFSET, 0));
  if (cs.length === 1) return cs[0];
  cs = keepMin(cs, (c) => c.victims.pods.length);
  if (cs.length === 1) return cs[0];
  let best = cs[0];
  let latest = earliestStartOfHighestPriority(best.victims, now);
  if (latest === undefined) return best;
  for (let i = 1; i < cs.length; i++) {
    const t = earliestStartOfHighestPriority(cs[i].victims, now);
    if (t !== undefined && t > latest) {
      latest = t;
      best = cs[i];
    }
  }
  return best;
}

/** Upstream's SelectCandidate: the only one, or pickOneNodeForPreemption's choice. */
export function selectCandidate(candidates: readonly Candidate[], now: number): Candidate | undefined {
  if (candidates.length <= 1) return candidates[0];
  return pickOneNodeForPreemption(candidates, now);
}
