/**
 * Whether a newly assigned pod could satisfy a pending pod's required pod-affinity terms: only
 * such pods move when an assigned pod is added or updated (upstream's
 * getUnschedulablePodsWithMatchingAffinityTerm), so a bind does not requeue everything.
 */
import { labelSelectorFromObject } from '../../machinery/label-selector.js';
import type { Pod, PodAffinityTerm } from '../framework/types.js';

const TERMS = Symbol('requiredAffinityTerms');

interface CompiledTerm {
  namespaces: Set<string>;
  matches: (labels: Record<string, string> | undefined) => boolean;
}

function compile(pod: Pod): CompiledTerm[] {
  const terms: readonly PodAffinityTerm[] = pod.spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  const out: CompiledTerm[] = [];
  for (const t of terms) {
    try {
      const matcher = labelSelectorFromObject(t.labelSelector);
      const ns = t.namespaces && t.namespaces.length > 0 ? t.namespaces : [pod.metadata.namespace ?? ''];
      out.push({ namespaces: new Set(ns), matches: (l) => matcher(l) });
    } catch {
      // An invalid selector matches nothing, as upstream's parse error skips the term.
    }
  }
  return out;
}

/** True when some required affinity term of `pending` selects `assigned`. */
export function affinityTermsMatch(pending: { derived<T>(k: symbol, f: (p: Pod) => T): T }, assigned: Pod): boolean {
  const terms = pending.derived(TERMS, compile);
  for (const t of terms) if (t.namespaces.has(assigned.metadata.namespace ?? '') && t.matches(assigned.metadata.labels)) return true;
  return false;
}
