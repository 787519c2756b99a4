/**
 * PodTopologySpread PreScore/Score/NormalizeScore (upstream 1.21 scoring.go): soft constraints
 * score a node by the matching pods in its domains, weighted by log(domains + 2) and softened by
 * maxSkew − 1; fewer pods is better. Nodes lacking a topology key are ignored (score 0).
 */
import { type StateData, StateKey } from '../../framework/cycle-state.js';
import { MAX_NODE_SCORE, type NodeScore } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { NodeInfoLister } from '../../framework/snapshot.js';
import { errorStatus, type Status, SUCCESS } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { type Constraint, countPodsMatchSelector, nodeLabelsMatch, pairKey } from './common.js';
import { NAME } from './filtering.js';
import { podMatchesNodeSelectorAndAffinityTerms } from './node-selector.js';

export class PreScoreState implements StateData {
  constructor(
    readonly constraints: readonly Constraint[],
    /** Names of filtered nodes missing a topology key. */
    readonly ignoredNodes: Set<string>,
    /** Matching pods per (key, value) pair of the filtered nodes; hostname counts are taken in Score. */
    readonly pairCounts: Map<string, number>,
    readonly weights: number[],
    readonly hostnameLabel: string,
  ) {}
  /** Read-only after PreScore. */
  clone(): PreScoreState {
    return this;
  }
}

export const preScoreStateKey = new StateKey<PreScoreState>(`PreScore${NAME}`);

/** log(size + 2): domain counts of small topologies are not watered down by big ones. */
export function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

function scoreForCount(cnt: number, maxSkew: number, weight: number): number {
  return cnt * weight + (maxSkew - 1);
}

/** Upstream's initPreScoreState plus the count over all nodes. */
export function computePreScoreState(
  pod: Pod,
  constraints: readonly Constraint[],
  filtered: readonly NodeInfo[],
  lister: NodeInfoLister,
  hostnameLabel: string,
): PreScoreState {
  const ignored = new Set<string>();
  const pairCounts = new Map<string, number>();
  const topoSize = constraints.map(() => 0);
  for (const ni of filtered) {
    const node = ni.node;
    if (node === undefined || !nodeLabelsMatch(node, constraints)) {
      ignored.add(ni.name);
      continue;
    }
    const labels = node.metadata.labels!;
    constraints.forEach((c, i) => {
      if (c.topologyKey === hostnameLabel) return;
      const k = pairKey(c.topologyKey, labels[c.topologyKey]);
      if (!pairCounts.has(k)) {
        pairCounts.set(k, 0);
        topoSize[i]++;
      }
    });
  }
  const weights = constraints.map((c, i) => topologyNormalizingWeight(c.topologyKey === hostnameLabel ? filtered.length - ignored.size : topoSize[i]));
  const ns = pod.metadata.namespace ?? '';
  if (pairCounts.size > 0) {
    for (const ni of lister.list()) {
      const node = ni.node;
      if (node === undefined || ni.pods.length === 0) continue;
      if (!podMatchesNodeSelectorAndAffinityTerms(pod, node) || !nodeLabelsMatch(node, constraints)) continue;
      const labels = node.metadata.labels!;
      for (const c of constraints) {
        const k = pairKey(c.topologyKey, labels[c.topologyKey]);
        const cur = pairCounts.get(k);
        // Pairs of no candidate node, and per-node (hostname) counts, are skipped here.
        if (cur === undefined) continue;
        pairCounts.set(k, cur + countPodsMatchSelector(ni.pods, c.selector, ns));
      }
    }
  }
  return new PreScoreState(constraints, ignored, pairCounts, weights, hostnameLabel);
}

/** The raw score: weighted matching pods in the node's domains (lower is better). */
export function scoreNode(s: PreScoreState | undefined, pod: Pod, nodeInfo: NodeInfo): number {
  if (s === undefined) throw new Error(`error reading "${preScoreStateKey.name}" from cycleState: not found`);
  const node = nodeInfo.node;
  if (node === undefined || s.ignoredNodes.has(nodeInfo.name)) return 0;
  const labels = node.metadata.labels ?? {};
  const ns = pod.metadata.namespace ?? '';
  let score = 0;
  s.constraints.forEach((c, i) => {
    const v = labels[c.topologyKey];
    if (typeof v !== 'string') return;
    const cnt = c.topologyKey === s.hostnameLabel ? countPodsMatchSelector(nodeInfo.pods, c.selector, ns) : (s.pairCounts.get(pairKey(c.topologyKey, v)) ?? 0);
    score += scoreForCount(cnt, c.maxSkew, s.weights[i]);
  });
  return Math.trunc(score);
}

/** Reverses and scales: the least crowded node gets 100; ignored nodes 0. */
export function normalize(s: PreScoreState | undefined, scores: NodeScore[]): Status {
  if (s === undefined) return errorStatus(`error reading "${preScoreStateKey.name}" from cycleState: not found`);
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
  const ignored = scores.map((ns) => s.ignoredNodes.has(ns.name));
  scores.forEach((ns, i) => {
    if (ignored[i]) return;
    if (ns.score < min) min = ns.score;
    if (ns.score > max) max = ns.score;
  });
  scores.forEach((ns, i) => {
    if (ignored[i]) ns.score = 0;
    else if (max === 0) ns.score = MAX_NODE_SCORE;
    else ns.score = Math.trunc((MAX_NODE_SCORE * (max + min - ns.score)) / max);
  });
  return SUCCESS;
}
