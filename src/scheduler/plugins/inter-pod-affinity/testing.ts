/** Builders for the InterPodAffinity tests, shaped like upstream's test helpers. */
import type { LabelSelector } from '../../../machinery/label-selector.js';
import type { Affinity, Node, Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../../framework/types.js';

let seq = 0;

/** A selector with one matchExpression. */
export function expr(key: string, operator: string, values?: string[]): LabelSelector {
  return { matchExpressions: [{ key, operator, values }] };
}

/** A selector ANDing several matchExpressions. */
export function exprs(...e: [string, string, string[]?][]): LabelSelector {
  return { matchExpressions: e.map(([key, operator, values]) => ({ key, operator, values })) };
}

export function term(labelSelector: LabelSelector | undefined, topologyKey: string, namespaces?: string[]): PodAffinityTerm {
  return { labelSelector, topologyKey, namespaces };
}

export function weighted(weight: number, t: PodAffinityTerm): WeightedPodAffinityTerm {
  return { weight, podAffinityTerm: t };
}

/** Upstream's createPodWithAffinityTerms. */
export function podWithTerms(namespace: string, nodeName: string, labels: Record<string, string>, affinity?: PodAffinityTerm[], anti?: PodAffinityTerm[]): Pod {
  return pod(
    nodeName,
    labels,
    {
      podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: affinity },
      podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: anti },
    },
    namespace,
  );
}

export function pod(nodeName: string, labels?: Record<string, string>, affinity?: Affinity, namespace = ''): Pod {
  seq++;
  return { metadata: { name: `p${seq}`, namespace, uid: `uid-${seq}`, labels }, spec: { nodeName: nodeName || undefined, affinity, containers: [] } };
}

export function node(name: string, labels: Record<string, string>): Node {
  return { metadata: { name, labels } };
}
