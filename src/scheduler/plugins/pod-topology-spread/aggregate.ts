/**
 * PodTopologySpread's pass over every node, kept across scheduling cycles. For one aggregate key
 * (namespace, node selector / required affinity, constraints' keys and selectors) it remembers,
 * per position of the node list, the NodeInfo and generation seen, whether the node is eligible,
 * its topology values and its matching-pod counts, and the counts summed per topology value.
 * Each cycle only positions whose NodeInfo or generation changed are recomputed, so the sums
 * are exactly what a fresh pass over the list gives.
 *
 * Two modes, as the passes they replace:
 * - filtering (computePreFilterState): eligible = passes the node selector and has every
 *   topology key; pods count on every node that has the key (eligible or not); the eligible
 *   values per key are kept in first-seen list order (the critical paths' tie-breaking).
 * - scoring (computePreScoreState): pods count only on nodes with pods that pass the node
 *   selector and have every key, and only for constraints whose key is not the hostname label.
 */
import type { NodeInfo } from '../../framework/node-info.js';
import type { Node } from '../../framework/types.js';
import { type Constraint, type NodeCounter, nodeLabelsMatch } from './common.js';

export class SpreadAggregate {
  /** Distinct topology keys in constraint order. */
  readonly keys: string[];
  /** Per distinct key: matching pods summed per topology value (zero sums are dropped). */
  readonly sums: Map<string, number>[];
  /** Per constraint: index of its key in `keys`. */
  private readonly keyOf: number[];
  /** Per constraint: whether its pods are counted. */
  private readonly counted: boolean[];
  private nodes: (NodeInfo | undefined)[] = [];
  private gens: number[] = [];
  private eligible: boolean[] = [];
  /** Position i, key j at i * keys.length + j. */
  private vals: (string | undefined)[] = [];
  /** Position i, constraint c at i * constraints + c. */
  private cnts: number[] = [];
  /** Per key, the values of eligible nodes in first-seen order; undefined when to be rebuilt. */
  private order: string[][] | undefined;

  constructor(
    private readonly scoring: boolean,
    constraints: readonly Constraint[],
    hostnameLabel: string,
  ) {
    this.keys = [];
    this.keyOf = constraints.map((c) => {
      const i = this.keys.indexOf(c.topologyKey);
      if (i >= 0) return i;
      this.keys.push(c.topologyKey);
      return this.keys.length - 1;
    });
    this.counted = constraints.map((c) => !scoring || c.topologyKey !== hostnameLabel);
    this.sums = this.keys.map(() => new Map());
  }

  /**
   * Brings the aggregate up to date with `list`. `constraints` must be the ones it was built
   * for (same keys and selectors), `passes` the pod's node selector test and `count` the
   * constraints' per-node counters.
   */
  update(list: readonly NodeInfo[], constraints: readonly Constraint[], passes: (node: Node) => boolean, count: readonly NodeCounter[]): void {
    const n = list.length;
    const old = this.nodes.length;
    const nk = this.keys.length;
    const nc = constraints.length;
    const { keys, keyOf, counted, sums, vals, cnts, eligible, scoring } = this;
    const end = n > old ? n : old;
    let dirty = false;
    for (let i = 0; i < end; i++) {
      const ni = i < n ? list[i] : undefined;
      if (ni !== undefined && i < old && this.nodes[i] === ni && this.gens[i] === ni.generation) continue;
      if (i < old) {
        for (let c = 0; c < nc; c++) {
          const cnt = cnts[i * nc + c];
          if (cnt === 0) continue;
          const m = sums[keyOf[c]];
          const v = vals[i * nk + keyOf[c]] as string;
          const left = (m.get(v) as number) - cnt;
          if (left === 0) m.delete(v);
          else m.set(v, left);
        }
      }
      if (ni === undefined) {
        dirty = true;
        continue;
      }
      const node = ni.node;
      const labels = node?.metadata.labels;
      const e = node !== undefined && passes(node) && nodeLabelsMatch(node, constraints);
      if (eligible[i] !== e) dirty = true;
      eligible[i] = e;
      for (let j = 0; j < nk; j++) {
        const raw = labels?.[keys[j]];
        const v = typeof raw === 'string' ? raw : undefined;
        if (vals[i * nk + j] !== v) dirty = true;
        vals[i * nk + j] = v;
      }
      const countHere = node !== undefined && labels !== undefined && ni.pods.length > 0 && (!scoring || e);
      for (let c = 0; c < nc; c++) {
        let cnt = 0;
        const j = keyOf[c];
        const v = vals[i * nk + j];
        if (countHere && counted[c] && v !== undefined) cnt = count[c](ni);
        cnts[i * nc + c] = cnt;
        if (cnt !== 0) {
          const m = sums[j];
          m.set(v as string, (m.get(v as string) ?? 0) + cnt);
        }
      }
      this.nodes[i] = ni;
      this.gens[i] = ni.generation;
    }
    if (old > n) {
      this.nodes.length = n;
      this.gens.length = n;
      eligible.length = n;
      vals.length = n * nk;
      cnts.length = n * nc;
    }
    if (dirty) this.order = undefined;
  }

  /** Per key, the values of eligible nodes in first-seen list order (filtering mode). */
  eligibleValues(): string[][] {
    if (this.order !== undefined) return this.order;
    const nk = this.keys.length;
    const sets = this.keys.map(() => new Set<string>());
    for (let i = 0; i < this.nodes.length; i++) {
      if (!this.eligible[i]) continue;
      for (let j = 0; j < nk; j++) sets[j].add(this.vals[i * nk + j] as string);
    }
    this.order = sets.map((s) => [...s]);
    return this.order;
  }
}

/** Aggregates by key, the least recently used dropped beyond `max`. */
export class SpreadAggregates {
  private readonly byKey = new Map<string, SpreadAggregate>();

  constructor(private readonly max = 16) {}

  get(key: string, make: () => SpreadAggregate): SpreadAggregate {
    let a = this.byKey.get(key);
    if (a !== undefined) {
      this.byKey.delete(key);
    } else {
      a = make();
      if (this.byKey.size >= this.max) this.byKey.delete(this.byKey.keys().next().value as string);
    }
    this.byKey.set(key, a);
    return a;
  }
}

/** The aggregate key of a pod's constraints, or undefined when a selector has no key. */
export function aggregateKey(mode: string, ns: string, nodeSelectorKey: string, constraints: readonly Constraint[]): string | undefined {
  let key = `${mode}\u0000${ns}\u0000${nodeSelectorKey}`;
  for (const c of constraints) {
    if (c.selectorKey === undefined) return undefined;
    key += `\u0000${c.topologyKey}\u0000${c.selectorKey}`;
  }
  return key;
}
