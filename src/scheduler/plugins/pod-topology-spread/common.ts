/**
 * What PodTopologySpread's filtering and scoring share (upstream 1.21 common.go and
 * helper.DefaultSelector): parsed constraints, the default selector built from the Services,
 * ReplicationControllers, ReplicaSets and StatefulSets that own or select a pod, and the
 * matching-pod count per node.
 */
import { labelSelectorFromObject, labelSelectorFromSet, type LabelSelector, type Labels } from '../../../machinery/label-selector.js';
import type { Listers } from '../../framework/handle.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PodInfo } from '../../framework/pod-info.js';
import type { Node, Pod, TopologySpreadConstraint } from '../../framework/types.js';
import { NodeMemo } from '../../framework/node-memo.js';

/** A label matcher (compiled once per constraint). */
export type Selector = (labels: Labels | undefined | null) => boolean;

/** A constraint with its selector compiled. */
export interface Constraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: Selector;
  /** A string that identifies what the selector matches (memo key); undefined when unknown. */
  readonly selectorKey?: string;
}

/** The constraints with the given whenUnsatisfiable; throws (badRequest) on an invalid selector. */
export function filterConstraints(cs: readonly TopologySpreadConstraint[], action: string): Constraint[] {
  const out: Constraint[] = [];
  for (const c of cs) {
    if (c.whenUnsatisfiable !== action) continue;
    out.push({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      selector: labelSelectorFromObject(c.labelSelector),
      selectorKey: JSON.stringify(c.labelSelector ?? null),
    });
  }
  return out;
}

/** True when the node has every constraint's topology key. */
export function nodeLabelsMatch(node: Node, cs: readonly Constraint[]): boolean {
  const labels = node.metadata.labels;
  for (const c of cs) if (typeof labels?.[c.topologyKey] !== 'string') return false;
  return true;
}

/** Pods of namespace `ns` on the node matching the selector; terminating pods do not count (#87621). */
export function countPodsMatchSelector(pods: readonly PodInfo[], selector: Selector, ns: string): number {
  let n = 0;
  for (const pi of pods) {
    const m = pi.pod.metadata;
    if (m.deletionTimestamp || (m.namespace ?? '') !== ns) continue;
    if (selector(m.labels)) n++;
  }
  return n;
}

/** A node's count of matching pods for one constraint. */
export type NodeCounter = (ni: NodeInfo) => number;

/**
 * Counts matching pods per node, memoized across cycles by NodeInfo generation for selectors
 * with a known key (the count depends only on the node's pods, the namespace and the selector).
 */
export class MatchCounter implements Counters {
  private readonly memo = new NodeMemo<number>(32);

  counter(c: Constraint, ns: string): NodeCounter {
    const { selector } = c;
    const count = (ni: NodeInfo) => countPodsMatchSelector(ni.pods, selector, ns);
    if (c.selectorKey === undefined) return count;
    const table = this.memo.table(`${ns}\u0000${c.selectorKey}`);
    return (ni) => table.get(ni, count);
  }
}

/** What gives a constraint's per-node counter. */
export interface Counters {
  counter(c: Constraint, ns: string): NodeCounter;
}

/** Counters without memo (one-off computations and tests). */
export const UNMEMOIZED: Counters = {
  counter:
    (c: Constraint, ns: string): NodeCounter =>
    (ni) =>
      countPodsMatchSelector(ni.pods, c.selector, ns),
};

/** Map key of a (topologyKey, value) pair; NUL cannot occur in label keys. */
export function pairKey(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

/**
 * Upstream's helper.DefaultSelector: the union of the selectors of the Services selecting the
 * pod and of its controlling RC, ReplicaSet or StatefulSet; undefined when that is empty.
 * `key` identifies what the selector matches (for memoizing counts).
 */
export function defaultSelector(
  pod: Pod,
  listers: Pick<Listers, 'services' | 'replicationControllers' | 'replicaSets' | 'statefulSets'>,
): { selector: Selector; key: string } | undefined {
  const ns = pod.metadata.namespace ?? '';
  const set: Record<string, string> = {};
  for (const svc of podServices(pod, listers)) Object.assign(set, svc);
  const extra: Selector[] = [];
  const extraRaw: unknown[] = [];
  const owner = pod.metadata.ownerReferences?.find((o) => o.controller === true);
  if (owner !== undefined) {
    const gvk = `${owner.apiVersion}/${owner.kind}`;
    if (gvk === 'v1/ReplicationController') {
      const sel = listers.replicationControllers.get(owner.name, ns)?.spec?.selector;
      if (sel !== null && typeof sel === 'object') Object.assign(set, sel as Record<string, string>);
    } else if (gvk === 'apps/v1/ReplicaSet' || gvk === 'apps/v1/StatefulSet') {
      const lister = gvk === 'apps/v1/ReplicaSet' ? listers.replicaSets : listers.statefulSets;
      const sel = lister.get(owner.name, ns)?.spec?.selector as LabelSelector | null | undefined;
      try {
        const m = labelSelectorFromObject(sel);
        // A nil selector (Nothing) adds no requirements upstream; neither does an empty one.
        if (!m.isNothing && m.requirements.length > 0) {
          extra.push(m);
          extraRaw.push(sel);
        }
      } catch {
        // An invalid selector is ignored, as upstream.
      }
    }
  }
  if (Object.keys(set).length === 0 && extra.length === 0) return undefined;
  const key = JSON.stringify(['default', Object.entries(set).sort(), extraRaw]);
  const base = labelSelectorFromSet(set);
  if (extra.length === 0) return { selector: base, key };
  return { selector: (labels) => base(labels) && extra.every((m) => m(labels)), key };
}

/** Selectors (label maps) of the Services in the pod's namespace that select it; nil selectors match nothing. */
export function podServices(pod: Pod, listers: Pick<Listers, 'services'>): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const svc of listers.services.listInNamespace(pod.metadata.namespace ?? '')) {
    const sel = svc.spec?.selector;
    if (sel === null || typeof sel !== 'object') continue;
    if (labelSelectorFromSet(sel as Record<string, string>)(pod.metadata.labels)) out.push(sel as Record<string, string>);
  }
  return out;
}
