/**
 * InterPodAffinity PreScore/Score/NormalizeScore (upstream 1.21 scoring.go): one pass over the
 * existing pods sums weights per (topologyKey, value) — the incoming pod's preferred terms,
 * and symmetrically the existing pods' required affinity (hardPodAffinityWeight) and preferred
 * terms; a node's score is the sum over its labels, normalized min–max with 0 included.
 */
import { type StateData, StateKey } from '../../framework/cycle-state.js';
import { MAX_NODE_SCORE, type NodeScore } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PodInfo } from '../../framework/pod-info.js';
import type { NodeInfoLister } from '../../framework/snapshot.js';
import { errorStatus, SKIP, type Status, SUCCESS } from '../../framework/status.js';
import type { Node, Pod } from '../../framework/types.js';
import { NAME } from './filtering.js';
import { type AffinityTerm, nodeLabel, type ParsedAffinity, termMatches, termsOf, termsOfPod, type WeightedAffinityTerm } from './terms.js';

/** topologyKey -> topology value -> summed weight. */
type ScoreMap = Map<string, Map<string, number>>;

export class PreScoreState implements StateData {
  constructor(readonly topologyScore: ScoreMap) {}
  /** Read-only after PreScore, so shared. */
  clone(): PreScoreState {
    return this;
  }
}

export const preScoreStateKey = new StateKey<PreScoreState>(`PreScore${NAME}`);

function processTerm(m: ScoreMap, t: AffinityTerm, weight: number, pod: Pod, node: Node, multiplier: number): void {
  if (!termMatches(t, pod)) return;
  const v = nodeLabel(node, t.topologyKey);
  if (v === undefined) return;
  let byValue = m.get(t.topologyKey);
  if (byValue === undefined) m.set(t.topologyKey, (byValue = new Map()));
  byValue.set(v, (byValue.get(v) ?? 0) + weight * multiplier);
}

function processTerms(m: ScoreMap, terms: readonly WeightedAffinityTerm[], pod: Pod, node: Node, multiplier: number): void {
  for (const t of terms) processTerm(m, t, t.weight, pod, node, multiplier);
}

function processExistingPod(m: ScoreMap, incoming: Pod, terms: ParsedAffinity, existing: PodInfo, node: Node, hardWeight: number): void {
  const labels = node.metadata.labels;
  if (labels === undefined || Object.keys(labels).length === 0) return;
  processTerms(m, terms.preferredAffinity, existing.pod, node, 1);
  processTerms(m, terms.preferredAntiAffinity, existing.pod, node, -1);
  const et = termsOf(existing);
  if (hardWeight > 0) for (const t of et.requiredAffinity) processTerm(m, t, hardWeight, incoming, node, 1);
  processTerms(m, et.preferredAffinity, incoming, node, 1);
  processTerms(m, et.preferredAntiAffinity, incoming, node, -1);
}

/**
 * Builds the score map. Skip when it is empty: upstream then scores every node 0 and its
 * NormalizeScore leaves them 0, which is what skipping the plugin amounts to.
 */
export function preScore(pod: Pod, nodes: readonly NodeInfo[], lister: NodeInfoLister, hardWeight: number, write: (s: PreScoreState) => void): Status {
  if (nodes.length === 0) return SKIP;
  const terms = termsOfPod(pod);
  if (terms.parseError !== undefined) return errorStatus(`parsing pod: ${terms.parseError}`);
  const hasConstraints = terms.preferredAffinity.length > 0 || terms.preferredAntiAffinity.length > 0;
  // Without preferred terms of its own, only existing pods with (anti-)affinity can contribute.
  const all = hasConstraints ? lister.list() : lister.havePodsWithAffinityList();
  const m: ScoreMap = new Map();
  for (const ni of all) {
    const node = ni.node;
    if (node === undefined) continue;
    for (const pi of hasConstraints ? ni.pods : ni.podsWithAffinity) processExistingPod(m, pod, terms, pi, node, hardWeight);
  }
  if (m.size === 0) return SKIP;
  write(new PreScoreState(m));
  return SUCCESS;
}

/** Sum of the weights of the node's topology pairs; may be negative before normalizing. */
export function scoreNode(s: PreScoreState | undefined, nodeInfo: NodeInfo): number {
  if (s === undefined) throw new Error(`failed to read "${preScoreStateKey.name}" from cycleState: not found`);
  const node = nodeInfo.node;
  if (node === undefined) return 0;
  let score = 0;
  for (const [key, byValue] of s.topologyScore) {
    const v = nodeLabel(node, key);
    if (v !== undefined) score += byValue.get(v) ?? 0;
  }
  return score;
}

/** Min–max normalization as 1.21, whose min and max start at 0 (so all-positive scores keep their ratio to 0). */
export function normalize(s: PreScoreState | undefined, scores: NodeScore[]): Status {
  if (s === undefined) return errorStatus(`failed to read "${preScoreStateKey.name}" from cycleState: not found`);
  if (s.topologyScore.size === 0) return SUCCESS;
  let max = 0;
  let min = 0;
  for (const { score } of scores) {
    if (score > max) max = score;
    if (score < min) min = score;
  }
  const diff = max - min;
  for (const ns of scores) ns.score = diff > 0 ? Math.trunc(MAX_NODE_SCORE * ((ns.score - min) / diff)) : 0;
  return SUCCESS;
}
