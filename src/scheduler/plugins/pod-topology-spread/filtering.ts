/**
 * PodTopologySpread PreFilter/Filter (upstream 1.21 filtering.go): matching pods per topology
 * pair over the nodes that pass the pod's node selector and carry every topology key, plus the
 * two smallest counts per key ("critical paths") so Filter's skew check and preemption's
 * AddPod/RemovePod are O(1) per constraint.
 */
import { type StateData, StateKey } from '../../framework/cycle-state.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { NodeInfoLister } from '../../framework/snapshot.js';
import { errorStatus, type Status, SUCCESS, unresolvable, unschedulable } from '../../framework/status.js';
import type { Node, Pod } from '../../framework/types.js';
import { type Constraint, type Counters, nodeLabelsMatch, pairKey, UNMEMOIZED } from './common.js';
import { aggregateKey, SpreadAggregate, type SpreadAggregates } from './aggregate.js';
import { nodeSelectorKey, nodeSelectorTest } from './node-selector.js';

export const NAME = 'PodTopologySpread';
export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH = `${ERR_REASON_CONSTRAINTS_NOT_MATCH} (missing required label)`;

const MAX_INT32 = 2147483647;

/** The two smallest match counts of one topology key (upstream's criticalPaths). */
export class CriticalPaths {
  // Upstream starts with empty values, which a node label "" then matches; kept for fidelity.
  v0 = '';
  n0 = MAX_INT32;
  v1 = '';
  n1 = MAX_INT32;

  clone(): CriticalPaths {
    const c = new CriticalPaths();
    c.v0 = this.v0;
    c.n0 = this.n0;
    c.v1 = this.v1;
    c.n1 = this.n1;
    return c;
  }

  update(value: string, num: number): void {
    const i = value === this.v0 ? 0 : value === this.v1 ? 1 : -1;
    if (i >= 0) {
      if (i === 0) this.n0 = num;
      else this.n1 = num;
      if (this.n0 > this.n1) [this.v0, this.n0, this.v1, this.n1] = [this.v1, this.n1, this.v0, this.n0];
    } else if (num < this.n0) {
      this.v1 = this.v0;
      this.n1 = this.n0;
      this.v0 = value;
      this.n0 = num;
    } else if (num < this.n1) {
      this.v1 = value;
      this.n1 = num;
    }
  }
}

export class PreFilterState implements StateData {
  /** Per constraint: its key's matching pods per value and critical paths (resolved once). */
  private byValue: (Map<string, number> | undefined)[];
  private paths: (CriticalPaths | undefined)[];
  /** Per constraint: 1 when the pod matches its own selector (for `selfPod`). */
  private self: number[] = [];
  private selfPod: Pod | undefined;

  constructor(
    readonly constraints: readonly Constraint[],
    readonly criticalPaths: Map<string, CriticalPaths>,
    /** Matching pods per topology key, then value (the eligible pairs). */
    readonly counts: Map<string, Map<string, number>>,
  ) {
    this.byValue = constraints.map((c) => counts.get(c.topologyKey));
    this.paths = constraints.map((c) => criticalPaths.get(c.topologyKey));
  }

  /** Matching pods per pair (pairKey), key by key (for tests and debugging). */
  get matchNum(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [k, byValue] of this.counts) for (const [v, n] of byValue) out.set(pairKey(k, v), n);
    return out;
  }

  clone(): PreFilterState {
    const paths = new Map<string, CriticalPaths>();
    for (const [k, p] of this.criticalPaths) paths.set(k, p.clone());
    const counts = new Map<string, Map<string, number>>();
    for (const [k, byValue] of this.counts) counts.set(k, new Map(byValue));
    return new PreFilterState(this.constraints, paths, counts);
  }

  /** Preemption/nomination: a pod added (1) to or removed (-1) from `node`. */
  updateWithPod(updated: Pod, preemptor: Pod, node: Node | undefined, delta: number): void {
    if (node === undefined || (updated.metadata.namespace ?? '') !== (preemptor.metadata.namespace ?? '')) return;
    if (!nodeLabelsMatch(node, this.constraints)) return;
    const labels = node.metadata.labels ?? {};
    for (const c of this.constraints) {
      if (!c.selector(updated.metadata.labels)) continue;
      const v = labels[c.topologyKey];
      let byValue = this.counts.get(c.topologyKey);
      if (byValue === undefined) {
        this.counts.set(c.topologyKey, (byValue = new Map()));
        this.byValue = this.constraints.map((x) => this.counts.get(x.topologyKey));
      }
      const n = (byValue.get(v) ?? 0) + delta;
      byValue.set(v, n);
      this.criticalPaths.get(c.topologyKey)?.update(v, n);
    }
  }

  /** Filter on one node: every constraint's skew check. */
  filter(pod: Pod, node: Node): Status {
    const cs = this.constraints;
    const nc = cs.length;
    if (nc === 0) return SUCCESS;
    if (pod !== this.selfPod) {
      this.self = cs.map((c) => (c.selector(pod.metadata.labels) ? 1 : 0));
      this.selfPod = pod;
    }
    const labels = node.metadata.labels;
    for (let i = 0; i < nc; i++) {
      const c = cs[i];
      const v = labels?.[c.topologyKey];
      if (typeof v !== 'string') return unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH);
      const paths = this.paths[i];
      if (paths === undefined) continue;
      const matchNum = this.byValue[i]?.get(v) ?? 0;
      if (matchNum + this.self[i] - paths.n0 > c.maxSkew) return unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH);
    }
    return SUCCESS;
  }
}

export const preFilterStateKey = new StateKey<PreFilterState>(`PreFilter${NAME}`);

/**
 * Counts matching pods per topology pair over the eligible nodes (upstream's calPreFilterState).
 * With `aggregates`, the pass over the nodes is kept across cycles (see SpreadAggregate) and
 * only nodes that changed are looked at again; without, it is done afresh.
 */
export function computePreFilterState(
  pod: Pod,
  constraints: readonly Constraint[],
  lister: NodeInfoLister,
  counters: Counters = UNMEMOIZED,
  aggregates?: SpreadAggregates,
): PreFilterState {
  const ns = pod.metadata.namespace ?? '';
  const key = aggregates === undefined ? undefined : aggregateKey('f', ns, nodeSelectorKey(pod), constraints);
  if (aggregates === undefined || key === undefined) return computeDirect(pod, constraints, lister, counters);
  const agg = aggregates.get(key, () => new SpreadAggregate(false, constraints, ''));
  agg.update(
    lister.list(),
    constraints,
    nodeSelectorTest(pod),
    constraints.map((c) => counters.counter(c, ns)),
  );
  return buildState(constraints, agg.keys, agg.eligibleValues(), agg.sums);
}

/** The state from the eligible values per key (first-seen order) and matching pods per value. */
function buildState(
  constraints: readonly Constraint[],
  keys: readonly string[],
  eligible: readonly string[][],
  sums: readonly Map<string, number>[],
): PreFilterState {
  const counts = new Map<string, Map<string, number>>();
  const paths = new Map<string, CriticalPaths>();
  for (let j = 0; j < keys.length; j++) {
    const sum = sums[j];
    const byValue = new Map<string, number>();
    const p = new CriticalPaths();
    counts.set(keys[j], byValue);
    paths.set(keys[j], p);
    for (const v of eligible[j]) {
      const n = sum.get(v) ?? 0;
      byValue.set(v, n);
      p.update(v, n);
    }
  }
  return new PreFilterState(constraints, paths, counts);
}

/**
 * The pass done afresh. One pass over the nodes: per topology key, the values of eligible nodes (in first-seen order,
 * which the critical paths' tie-breaking depends on) and matching pods per value over all nodes;
 * pairs of no eligible node are then dropped. Constraints sharing a key share its pairs.
 */
function computeDirect(pod: Pod, constraints: readonly Constraint[], lister: NodeInfoLister, counters: Counters): PreFilterState {
  const ns = pod.metadata.namespace ?? '';
  const passes = nodeSelectorTest(pod);
  const nc = constraints.length;
  const keys = constraints.map((c) => c.topologyKey);
  const count = constraints.map((c) => counters.counter(c, ns));
  // Per topology key: eligible values (insertion-ordered) and matching pods per value.
  const eligibleByKey = new Map<string, Set<string>>();
  const countsByKey = new Map<string, Map<string, number>>();
  for (const k of keys) {
    if (!eligibleByKey.has(k)) {
      eligibleByKey.set(k, new Set());
      countsByKey.set(k, new Map());
    }
  }
  const eligible = keys.map((k) => eligibleByKey.get(k) as Set<string>);
  const counts = keys.map((k) => countsByKey.get(k) as Map<string, number>);
  for (const ni of lister.list()) {
    const node = ni.node;
    if (node === undefined) continue;
    const labels = node.metadata.labels;
    // Spreading applies only to nodes passing the pod's nodeSelector / required node affinity.
    if (passes(node) && nodeLabelsMatch(node, constraints)) {
      for (let i = 0; i < nc; i++) eligible[i].add((labels as Record<string, string>)[keys[i]]);
    }
    // Pods on ineligible nodes still count when their pair is shared with an eligible node.
    if (labels === undefined || ni.pods.length === 0) continue;
    for (let i = 0; i < nc; i++) {
      const v = labels[keys[i]];
      if (typeof v !== 'string') continue;
      const n = count[i](ni);
      if (n !== 0) counts[i].set(v, (counts[i].get(v) ?? 0) + n);
    }
  }
  const keyList = [...eligibleByKey.keys()];
  return buildState(
    constraints,
    keyList,
    keyList.map((k) => [...(eligibleByKey.get(k) as Set<string>)]),
    keyList.map((k) => countsByKey.get(k) as Map<string, number>),
  );
}

/** The skew check: matching pods in the node's domain + self − global minimum ≤ maxSkew. */
export function filterNode(s: PreFilterState | undefined, pod: Pod, nodeInfo: NodeInfo): Status {
  const node = nodeInfo.node;
  if (node === undefined) return errorStatus('node not found');
  if (s === undefined) return errorStatus(`error reading "${preFilterStateKey.name}" from cycleState: not found`);
  return s.filter(pod, node);
}
