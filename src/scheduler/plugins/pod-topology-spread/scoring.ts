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
import { type Constraint, type Counters, type NodeCounter, nodeLabelsMatch, UNMEMOIZED } from './common.js';
import { aggregateKey, SpreadAggregate, type SpreadAggregates } from './aggregate.js';
import { NAME } from './filtering.js';
import { nodeSelectorKey, nodeSelectorTest } from './node-selector.js';

export class PreScoreState implements StateData {
  constructor(
    readonly constraints: readonly Constraint[],
    /** Names of filtered nodes missing a topology key. */
    readonly ignoredNodes: Set<string>,
    /** Matching pods per topology key and value of the filtered nodes; hostname counts are taken in Score. */
    readonly pairCounts: Map<string, Map<string, number>>,
    readonly weights: number[],
    readonly hostnameLabel: string,
    /** Per constraint, a node's matching pods (for the hostname key). */
    readonly counters: readonly NodeCounter[],
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
  counters: Counters = UNMEMOIZED,
  aggregates?: SpreadAggregates,
): PreScoreState {
  const ignored = new Set<string>();
  const pairCounts = new Map<string, Map<string, number>>();
  const nc = constraints.length;
  const topoSize = constraints.map(() => 0);
  let size = 0;
  for (const ni of filtered) {
    const node = ni.node;
    if (node === undefined || !nodeLabelsMatch(node, constraints)) {
      ignored.add(ni.name);
      continue;
    }
    const labels = node.metadata.labels as Record<string, string>;
    for (let i = 0; i < nc; i++) {
      const k = constraints[i].topologyKey;
      if (k === hostnameLabel) continue;
      let byValue = pairCounts.get(k);
      if (byValue === undefined) pairCounts.set(k, (byValue = new Map()));
      const v = labels[k];
      if (!byValue.has(v)) {
        byValue.set(v, 0);
        size++;
        topoSize[i]++;
      }
    }
  }
  const weights = constraints.map((c, i) => topologyNormalizingWeight(c.topologyKey === hostnameLabel ? filtered.length - ignored.size : topoSize[i]));
  const ns = pod.metadata.namespace ?? '';
  const count = constraints.map((c) => counters.counter(c, ns));
  const key = size === 0 || aggregates === undefined ? undefined : aggregateKey('s', ns, nodeSelectorKey(pod), constraints);
  if (key !== undefined && aggregates !== undefined) {
    // The pass below, kept across cycles: matching pods summed per value over all counted nodes.
    const agg = aggregates.get(key, () => new SpreadAggregate(true, constraints, hostnameLabel));
    agg.update(lister.list(), constraints, nodeSelectorTest(pod), count);
    for (let j = 0; j < agg.keys.length; j++) {
      const byValue = pairCounts.get(agg.keys[j]);
      if (byValue === undefined) continue;
      const sum = agg.sums[j];
      for (const v of byValue.keys()) byValue.set(v, sum.get(v) ?? 0);
    }
  } else if (size > 0) {
    const passes = nodeSelectorTest(pod);
    const byKey = constraints.map((c) => pairCounts.get(c.topologyKey));
    for (const ni of lister.list()) {
      const node = ni.node;
      if (node === undefined || ni.pods.length === 0) continue;
      if (!passes(node) || !nodeLabelsMatch(node, constraints)) continue;
      const labels = node.metadata.labels as Record<string, string>;
      for (let i = 0; i < nc; i++) {
        const byValue = byKey[i];
        // Per-node (hostname) counts, and pairs of no candidate node, are skipped here.
        if (byValue === undefined) continue;
        const v = labels[constraints[i].topologyKey];
        const cur = byValue.get(v);
        if (cur === undefined) continue;
        byValue.set(v, cur + count[i](ni));
      }
    }
  }
  return new PreScoreState(constraints, ignored, pairCounts, weights, hostnameLabel, count);
}

/** The raw score: weighted matching pods in the node's domains (lower is better). */
export function scoreNode(s: PreScoreState | undefined, _pod: Pod, nodeInfo: NodeInfo): number {
  if (s === undefined) throw new Error(`error reading "${preScoreStateKey.name}" from cycleState: not found`);
  const node = nodeInfo.node;
  if (node === undefined || s.ignoredNodes.has(nodeInfo.name)) return 0;
  const labels = node.metadata.labels ?? {};
  let score = 0;
  const cs = s.constraints;
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i];
    const v = labels[c.topologyKey];
    if (typeof v !== 'string') continue;
    const cnt = c.topologyKey === s.hostnameLabel ? s.counters[i](nodeInfo) : (s.pairCounts.get(c.topologyKey)?.get(v) ?? 0);
    score += scoreForCount(cnt, c.maxSkew, s.weights[i]);
  }
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
