/**
 * InterPodAffinity PreFilter/Filter (upstream 1.21 filtering.go): counts per topology pair of
 * (1) existing pods whose required anti-affinity selects the incoming pod, (2) existing pods
 * matching all of the incoming pod's required affinity terms, (3) existing pods matching its
 * anti-affinity terms. Filter then only looks up the node's labels in these maps.
 */
import { type StateData, StateKey } from '../../framework/cycle-state.js';
import type { NodeInfoLister } from '../../framework/snapshot.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PodInfo } from '../../framework/pod-info.js';
import { errorStatus, type Status, SUCCESS, unresolvable, unschedulable } from '../../framework/status.js';
import type { Node, Pod } from '../../framework/types.js';
import { NodeMemo } from '../../framework/node-memo.js';
import { type AffinityTerm, keysOfPod, nodeLabel, type ParsedAffinity, pairKey, podMatchesAllTerms, termMatches, termsOf, termsOfPod } from './terms.js';

export const NAME = 'InterPodAffinity';

/** 1.21 pairs this general reason with one of the three specific ones below. */
export const ERR_REASON_AFFINITY_NOT_MATCH = "node(s) didn't match pod affinity/anti-affinity rules";
export const ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";
export const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules";

type Counts = Map<string, number>;

function update(m: Counts, node: Node, key: string, delta: number): void {
  const v = nodeLabel(node, key);
  if (v === undefined) return;
  const k = pairKey(key, v);
  const n = (m.get(k) ?? 0) + delta;
  // Entries at zero are dropped so "any count" checks stay a size test, as upstream.
  if (n === 0) m.delete(k);
  else m.set(k, n);
}

function updateWithAffinityTerms(m: Counts, terms: readonly AffinityTerm[], pod: Pod, node: Node, delta: number): void {
  if (!podMatchesAllTerms(terms, pod)) return;
  for (const t of terms) update(m, node, t.topologyKey, delta);
}

function updateWithAntiAffinityTerms(m: Counts, terms: readonly AffinityTerm[], pod: Pod, node: Node, delta: number): void {
  for (const t of terms) if (termMatches(t, pod)) update(m, node, t.topologyKey, delta);
}

/** PreFilter's counts; cloned for preemption's what-if runs. */
export class PreFilterState implements StateData {
  constructor(
    readonly pod: Pod,
    readonly terms: ParsedAffinity,
    readonly existingAntiAffinityCounts: Counts,
    readonly affinityCounts: Counts,
    readonly antiAffinityCounts: Counts,
  ) {}

  clone(): PreFilterState {
    return new PreFilterState(this.pod, this.terms, new Map(this.existingAntiAffinityCounts), new Map(this.affinityCounts), new Map(this.antiAffinityCounts));
  }

  /** Adds (delta 1) or removes (-1) an existing pod on `node`, as upstream's updateWithPod. */
  updateWithPod(pi: PodInfo, node: Node | undefined, delta: number): void {
    if (node === undefined) return;
    updateWithAntiAffinityTerms(this.existingAntiAffinityCounts, termsOf(pi).requiredAntiAffinity, this.pod, node, delta);
    updateWithAffinityTerms(this.affinityCounts, this.terms.requiredAffinity, pi.pod, node, delta);
    updateWithAntiAffinityTerms(this.antiAffinityCounts, this.terms.requiredAntiAffinity, pi.pod, node, delta);
  }
}

export const preFilterStateKey = new StateKey<PreFilterState>(`PreFilter${NAME}`);

/** One node's share of the three PreFilter counts, as (pair key, count) entries. */
interface NodeCounts {
  readonly existing: readonly (readonly [string, number])[];
  readonly affinity: readonly (readonly [string, number])[];
  readonly anti: readonly (readonly [string, number])[];
}

const NO_COUNTS: NodeCounts = Object.freeze({ existing: [], affinity: [], anti: [] });

/** The counts one node (with a node object) contributes for the incoming pod. */
function nodeCounts(ni: NodeInfo, pod: Pod, terms: ParsedAffinity): NodeCounts {
  const node = ni.node as Node;
  const existing: Counts = new Map();
  for (const pi of ni.podsWithRequiredAntiAffinity) updateWithAntiAffinityTerms(existing, termsOf(pi).requiredAntiAffinity, pod, node, 1);
  const affinity: Counts = new Map();
  const anti: Counts = new Map();
  const req = terms.requiredAffinity;
  const reqAnti = terms.requiredAntiAffinity;
  if (req.length > 0 || reqAnti.length > 0) {
    for (const pi of ni.pods) {
      if (req.length > 0) updateWithAffinityTerms(affinity, req, pi.pod, node, 1);
      if (reqAnti.length > 0) updateWithAntiAffinityTerms(anti, reqAnti, pi.pod, node, 1);
    }
  }
  if (existing.size === 0 && affinity.size === 0 && anti.size === 0) return NO_COUNTS;
  return { existing: [...existing], affinity: [...affinity], anti: [...anti] };
}

function addAll(m: Counts, entries: readonly (readonly [string, number])[]): void {
  for (const [k, n] of entries) m.set(k, (m.get(k) ?? 0) + n);
}

/** Per-node counts kept across cycles, keyed by the incoming pod's namespace, labels and required terms. */
export type PreFilterMemo = NodeMemo<NodeCounts>;

export function newPreFilterMemo(): PreFilterMemo {
  return new NodeMemo<NodeCounts>();
}

/** Builds the PreFilter state, or the UnschedulableAndUnresolvable status of a pod whose selectors do not parse. */
export function computePreFilterState(pod: Pod, lister: NodeInfoLister, memo: PreFilterMemo = newPreFilterMemo()): PreFilterState | Status {
  const terms = termsOfPod(pod);
  if (terms.parseError !== undefined) return unresolvable(`parsing pod: ${terms.parseError}`);
  const existing: Counts = new Map();
  const affinity: Counts = new Map();
  const anti: Counts = new Map();
  const table = memo.table(keysOfPod(pod).filter);
  const compute = (ni: NodeInfo) => nodeCounts(ni, pod, terms);
  // Only pods with required terms of their own need every node; otherwise only the nodes
  // holding pods with required anti-affinity can contribute.
  const all = terms.requiredAffinity.length > 0 || terms.requiredAntiAffinity.length > 0;
  for (const ni of all ? lister.list() : lister.havePodsWithRequiredAntiAffinityList()) {
    if (ni.node === undefined || ni.pods.length === 0) continue;
    const c = table.get(ni, compute);
    if (c === NO_COUNTS) continue;
    addAll(existing, c.existing);
    addAll(affinity, c.affinity);
    addAll(anti, c.anti);
  }
  return new PreFilterState(pod, terms, existing, affinity, anti);
}

function satisfyExistingPodsAntiAffinity(s: PreFilterState, node: Node): boolean {
  if (s.existingAntiAffinityCounts.size === 0) return true;
  const labels = node.metadata.labels ?? {};
  for (const key of Object.keys(labels)) if ((s.existingAntiAffinityCounts.get(pairKey(key, labels[key])) ?? 0) > 0) return false;
  return true;
}

function satisfyPodAntiAffinity(s: PreFilterState, node: Node): boolean {
  if (s.antiAffinityCounts.size === 0) return true;
  const terms = s.terms.requiredAntiAffinity;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    const v = nodeLabel(node, t.topologyKey);
    if (v !== undefined && (s.antiAffinityCounts.get(pairKey(t.topologyKey, v)) ?? 0) > 0) return false;
  }
  return true;
}

/** Runs per node: indexed loops, as for-of here allocated an iterator and its results per node. */
function satisfyPodAffinity(s: PreFilterState, node: Node): boolean {
  let podsExist = true;
  const terms = s.terms.requiredAffinity;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    const v = nodeLabel(node, t.topologyKey);
    // Every topology key of the terms must be on the node.
    if (v === undefined) return false;
    if ((s.affinityCounts.get(pairKey(t.topologyKey, v)) ?? 0) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  // The first pod of a group with affinity to itself: allowed when no pod matches anywhere yet
  // and the pod matches its own terms, so such groups do not stay pending forever.
  return s.affinityCounts.size === 0 && podMatchesAllTerms(s.terms.requiredAffinity, s.pod);
}

/** Filter against the PreFilter state; reasons as 1.21 (two per failure). */
export function filterNode(s: PreFilterState | undefined, nodeInfo: NodeInfo): Status {
  const node = nodeInfo.node;
  if (node === undefined) return errorStatus('node not found');
  if (s === undefined) return errorStatus(`error reading "${preFilterStateKey.name}" from cycleState: not found`);
  if (!satisfyPodAffinity(s, node)) return unresolvable(ERR_REASON_AFFINITY_NOT_MATCH, ERR_REASON_AFFINITY_RULES_NOT_MATCH);
  if (!satisfyPodAntiAffinity(s, node)) return unschedulable(ERR_REASON_AFFINITY_NOT_MATCH, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
  if (!satisfyExistingPodsAntiAffinity(s, node)) return unschedulable(ERR_REASON_AFFINITY_NOT_MATCH, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH);
  return SUCCESS;
}
