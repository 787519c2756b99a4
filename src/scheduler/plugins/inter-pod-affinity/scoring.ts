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
import { NodeMemo } from '../../framework/node-memo.js';
import { type AffinityTerm, keysOfPod, nodeLabel, type ParsedAffinity, termMatches, termsOf, termsOfPod, type WeightedAffinityTerm } from './terms.js';

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

/** One node's contributions to the score map: (topologyKey, value, summed weight) triples. */
type NodeContribution = readonly (readonly [string, string, number])[];

const NO_CONTRIBUTION: NodeContribution = Object.freeze([]);

function nodeContribution(ni: NodeInfo, pod: Pod, terms: ParsedAffinity, all: boolean, hardWeight: number): NodeContribution {
  const node = ni.node as Node;
  const m: ScoreMap = new Map();
  for (const pi of all ? ni.pods : ni.podsWithAffinity) processExistingPod(m, pod, terms, pi, node, hardWeight);
  if (m.size === 0) return NO_CONTRIBUTION;
  const out: [string, string, number][] = [];
  for (const [key, byValue] of m) for (const [value, w] of byValue) out.push([key, value, w]);
  return out;
}

/**
 * The score map of one incoming-pod key, kept across cycles: the sum of the contributions of
 * the nodes listed at each position last time, updated only at the positions whose NodeInfo
 * or generation changed. `refs` counts the contributions per pair so a pair no node touches
 * any more is dropped, exactly as if the map had been built afresh.
 */
class ScoreAggregate {
  readonly sums: ScoreMap = new Map();
  private readonly refs = new Map<string, Map<string, number>>();
  private nodes: (NodeInfo | undefined)[] = [];
  private gens: number[] = [];
  private contribs: NodeContribution[] = [];

  /** Brings the sums up to date with `list`; compute gives a node's (memoized) contribution. */
  update(list: readonly NodeInfo[], compute: (ni: NodeInfo) => NodeContribution): void {
    const n = list.length;
    const old = this.nodes.length;
    const end = n > old ? n : old;
    for (let i = 0; i < end; i++) {
      const ni = i < n ? list[i] : undefined;
      if (ni !== undefined && i < old && this.nodes[i] === ni && this.gens[i] === ni.generation) continue;
      if (i < old) this.apply(this.contribs[i], -1);
      const c = ni === undefined || ni.node === undefined || ni.pods.length === 0 ? NO_CONTRIBUTION : compute(ni);
      this.apply(c, 1);
      this.nodes[i] = ni;
      this.gens[i] = ni === undefined ? -1 : ni.generation;
      this.contribs[i] = c;
    }
    if (old > n) {
      this.nodes.length = n;
      this.gens.length = n;
      this.contribs.length = n;
    }
  }

  private apply(c: NodeContribution, sign: 1 | -1): void {
    for (const [key, value, w] of c) {
      let sums = this.sums.get(key);
      let refs = this.refs.get(key);
      if (sums === undefined || refs === undefined) {
        this.sums.set(key, (sums = new Map()));
        this.refs.set(key, (refs = new Map()));
      }
      const r = (refs.get(value) ?? 0) + sign;
      if (r === 0) {
        sums.delete(value);
        refs.delete(value);
        if (refs.size === 0) {
          this.sums.delete(key);
          this.refs.delete(key);
        }
      } else {
        refs.set(value, r);
        sums.set(value, (sums.get(value) ?? 0) + sign * w);
      }
    }
  }
}

const MAX_AGGREGATES = 16;

/**
 * What PreScore keeps across cycles, per incoming-pod key (namespace, labels, preferred terms):
 * each node's contribution (by NodeInfo and generation) and the summed score map.
 */
export class PreScoreMemo {
  readonly nodes = new NodeMemo<NodeContribution>(MAX_AGGREGATES);
  private readonly aggregates = new Map<string, ScoreAggregate>();

  aggregate(key: string): ScoreAggregate {
    let a = this.aggregates.get(key);
    if (a !== undefined) {
      this.aggregates.delete(key);
    } else {
      a = new ScoreAggregate();
      if (this.aggregates.size >= MAX_AGGREGATES) this.aggregates.delete(this.aggregates.keys().next().value as string);
    }
    this.aggregates.set(key, a);
    return a;
  }
}

export function newPreScoreMemo(): PreScoreMemo {
  return new PreScoreMemo();
}

/**
 * Builds the score map. Skip when it is empty: upstream then scores every node 0 and its
 * NormalizeScore leaves them 0, which is what skipping the plugin amounts to.
 *
 * With a memo the map is shared with the memo and updated in place by the next PreScore of a
 * pod with the same key: the state is valid for the current cycle only (read-only until then).
 */
export function preScore(
  pod: Pod,
  nodes: readonly NodeInfo[],
  lister: NodeInfoLister,
  hardWeight: number,
  write: (s: PreScoreState) => void,
  memo: PreScoreMemo = newPreScoreMemo(),
): Status {
  if (nodes.length === 0) return SKIP;
  const terms = termsOfPod(pod);
  if (terms.parseError !== undefined) return errorStatus(`parsing pod: ${terms.parseError}`);
  const hasConstraints = terms.preferredAffinity.length > 0 || terms.preferredAntiAffinity.length > 0;
  // Without preferred terms of its own, only existing pods with (anti-)affinity can contribute.
  const all = hasConstraints ? lister.list() : lister.havePodsWithAffinityList();
  const key = keysOfPod(pod).score;
  const table = memo.nodes.table(key);
  const compute = (ni: NodeInfo) => table.get(ni, (x) => nodeContribution(x, pod, terms, hasConstraints, hardWeight));
  const agg = memo.aggregate(key);
  agg.update(all, compute);
  if (agg.sums.size === 0) return SKIP;
  write(new PreScoreState(agg.sums));
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
