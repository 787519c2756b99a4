/**
 * Victim selection on one node (upstream 1.21 selectVictimsOnNode): remove every lower-priority
 * pod, check the preemptor fits, then reprieve as many as possible, PodDisruptionBudget-
 * violating pods first, each group from the most important pod down.
 */
import { labelSelectorFromObject } from '../../../machinery/label-selector.js';
import type { CycleState } from '../../framework/cycle-state.js';
import type { FrameworkHandle } from '../../framework/handle.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PodInfo } from '../../framework/pod-info.js';
import { Code, errorStatus, SUCCESS, Status } from '../../framework/status.js';
import { type Pod, type PodDisruptionBudget, podPriority } from '../../framework/types.js';

/** What preempting on one node costs: the pods to delete (most important first) and how many of them break a PDB. */
export interface Victims {
  pods: Pod[];
  numPDBViolations: number;
}

/** status.startTime in ms, or `now` when the pod has not started (upstream's GetPodStartTime). */
export function podStartTime(pod: Pod, now: number): number {
  const st = pod.status?.startTime;
  if (typeof st !== 'string') return now;
  const t = Date.parse(st);
  return Number.isNaN(t) ? now : t;
}

/** Upstream's MoreImportantPod: higher priority, then the one that started earlier. */
export function moreImportantPod(a: Pod, b: Pod, now: number): boolean {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pa > pb;
  return podStartTime(a, now) < podStartTime(b, now);
}

/** Sorts most important first; stable for equals, so the node's pod order decides ties. */
export function sortByImportance<T>(items: T[], pod: (t: T) => Pod, now: number): void {
  items.sort((x, y) => {
    const a = pod(x);
    const b = pod(y);
    if (moreImportantPod(a, b, now)) return -1;
    if (moreImportantPod(b, a, now)) return 1;
    return 0;
  });
}

/**
 * Upstream's filterPodsWithPDBViolation: splits pods (order kept) into those whose eviction
 * would exceed a matching PDB's disruptionsAllowed and the rest. Each pod uses up one allowed
 * disruption of every PDB in its namespace that selects it, unless the PDB already lists it
 * in status.disruptedPods. A PDB with a null or empty selector selects nothing.
 */
export function filterPodsWithPDBViolation(
  podInfos: readonly PodInfo[],
  pdbs: readonly PodDisruptionBudget[],
): { violating: PodInfo[]; nonViolating: PodInfo[] } {
  const allowed = pdbs.map((p) => p.status?.disruptionsAllowed ?? 0);
  const matchers = pdbs.map((p) => {
    try {
      const m = labelSelectorFromObject(p.spec?.selector);
      return m.isEverything ? undefined : m;
    } catch {
      return undefined;
    }
  });
  const violating: PodInfo[] = [];
  const nonViolating: PodInfo[] = [];
  for (const pi of podInfos) {
    const pod = pi.pod;
    const labels = pod.metadata.labels;
    let violated = false;
    if (labels !== undefined && Object.keys(labels).length > 0) {
      for (let i = 0; i < pdbs.length; i++) {
        const pdb = pdbs[i];
        const m = matchers[i];
        if ((pdb.metadata.namespace ?? '') !== (pod.metadata.namespace ?? '') || m === undefined || m.isNothing || !m(labels)) continue;
        // Already counted by the disruption controller: not a new violation.
        if (Object.hasOwn(pdb.status?.disruptedPods ?? {}, pod.metadata.name ?? '')) continue;
        allowed[i]--;
        if (allowed[i] < 0) violated = true;
      }
    }
    (violated ? violating : nonViolating).push(pi);
  }
  return { violating, nonViolating };
}

/**
 * Finds the fewest, least important pods to remove from `nodeInfo` (a clone this call may
 * change) for `pod` to fit; `state` must be a clone too. Unschedulable/Unresolvable when no
 * removal helps, Error when a PreFilter extension fails.
 */
export function selectVictimsOnNode(
  fh: FrameworkHandle,
  state: CycleState,
  pod: Pod,
  nodeInfo: NodeInfo,
  pdbs: readonly PodDisruptionBudget[],
): { victims?: Victims; status: Status } {
  const priority = podPriority(pod);
  const remove = (pi: PodInfo): Status => {
    nodeInfo.removePod(pi.uid);
    return fh.runPreFilterExtensionRemovePod(state, pod, pi, nodeInfo);
  };
  const add = (pi: PodInfo): Status => {
    nodeInfo.addPod(pi);
    return fh.runPreFilterExtensionAddPod(state, pod, pi, nodeInfo);
  };
  const potential: PodInfo[] = [];
  for (const pi of nodeInfo.pods.slice()) {
    if (pi.priority >= priority) continue;
    potential.push(pi);
    const s = remove(pi);
    if (!s.isSuccess()) return { status: asErrorStatus(s) };
  }
  if (potential.length === 0) {
    return {
      status: new Status(Code.UnschedulableAndUnresolvable, [`No victims found on node ${nodeInfo.name} for preemptor pod ${pod.metadata.name ?? ''}`]),
    };
  }
  // Affinity to the victims themselves is not considered (upstream: too costly, not recommended).
  const fits = fh.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
  if (!fits.isSuccess()) return { status: fits };

  const now = fh.clock.now();
  sortByImportance(potential, (pi) => pi.pod, now);
  const { violating, nonViolating } = filterPodsWithPDBViolation(potential, pdbs);
  const victims: PodInfo[] = [];
  let numPDBViolations = 0;
  let failure: Status | undefined;
  const reprieve = (pi: PodInfo): boolean | undefined => {
    const a = add(pi);
    if (!a.isSuccess()) {
      failure = a;
      return undefined;
    }
    if (fh.runFilterPluginsWithNominatedPods(state, pod, nodeInfo).isSuccess()) return true;
    const r = remove(pi);
    if (!r.isSuccess()) {
      failure = r;
      return undefined;
    }
    victims.push(pi);
    return false;
  };
  for (const pi of violating) {
    const kept = reprieve(pi);
    if (kept === undefined) return { status: asErrorStatus(failure!) };
    if (!kept) numPDBViolations++;
  }
  for (const pi of nonViolating) {
    if (reprieve(pi) === undefined) return { status: asErrorStatus(failure!) };
  }
  // Both groups were appended in turn: restore most-important-first (upstream fixed this in 1.22).
  if (violating.length > 0 && nonViolating.length > 0) sortByImportance(victims, (pi) => pi.pod, now);
  return { victims: { pods: victims.map((pi) => pi.pod), numPDBViolations }, status: SUCCESS };
}

function asErrorStatus(s: Status): Status {
  return s.code === Code.Error ? s : errorStatus(s.asError());
}
