/**
 * What PodTopologySpread's filtering and scoring share (upstream 1.21 common.go and
 * helper.DefaultSelector): parsed constraints, the default selector built from the Services,
 * ReplicationControllers, ReplicaSets and StatefulSets that own or select a pod, and the
 * matching-pod count per node.
 */
import { labelSelectorFromObject, labelSelectorFromSet, type LabelSelector, type Labels } from '../../../machinery/label-selector.js';
import type { Listers } from '../../framework/handle.js';
import type { PodInfo } from '../../framework/pod-info.js';
import type { Node, Pod, TopologySpreadConstraint } from '../../framework/types.js';

/** A label matcher (compiled once per constraint). */
export type Selector = (labels: Labels | undefined | null) => boolean;

/** A constraint with its selector compiled. */
export interface Constraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly selector: Selector;
}

/** The constraints with the given whenUnsatisfiable; throws (badRequest) on an invalid selector. */
export function filterConstraints(cs: readonly TopologySpreadConstraint[], action: string): Constraint[] {
  const out: Constraint[] = [];
  for (const c of cs) {
    if (c.whenUnsatisfiable !== action) continue;
    out.push({ maxSkew: c.maxSkew, topologyKey: c.topologyKey, selector: labelSelectorFromObject(c.labelSelector) });
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

/** Map key of a (topologyKey, value) pair; NUL cannot occur in label keys. */
export function pairKey(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

/**
 * Upstream's helper.DefaultSelector: the union of the selectors of the Services selecting the
 * pod and of its controlling RC, ReplicaSet or StatefulSet; undefined when that is empty.
 */
export function defaultSelector(
  pod: Pod,
  listers: Pick<Listers, 'services' | 'replicationControllers' | 'replicaSets' | 'statefulSets'>,
): Selector | undefined {
  const ns = pod.metadata.namespace ?? '';
  const set: Record<string, string> = {};
  for (const svc of podServices(pod, listers)) Object.assign(set, svc);
  const extra: Selector[] = [];
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
        if (!m.isNothing && m.requirements.length > 0) extra.push(m);
      } catch {
        // An invalid selector is ignored, as upstream.
      }
    }
  }
  if (Object.keys(set).length === 0 && extra.length === 0) return undefined;
  const base = labelSelectorFromSet(set);
  if (extra.length === 0) return base;
  return (labels) => base(labels) && extra.every((m) => m(labels));
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
