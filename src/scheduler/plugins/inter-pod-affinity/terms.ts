/**
 * Pod (anti-)affinity terms parsed once per pod (upstream's PodInfo.Required/Preferred*Terms):
 * selectors compiled, namespaces resolved. Existing pods keep theirs in `PodInfo.derived`, the
 * incoming pod in a WeakMap keyed by the (immutable) pod object, so no cycle re-parses them.
 */
import { type LabelMatcher, labelSelectorFromObject } from '../../../machinery/label-selector.js';
import type { PodInfo } from '../../framework/pod-info.js';
import type { Node, Pod, PodAffinityTerm, WeightedPodAffinityTerm } from '../../framework/types.js';

/** A processed v1.PodAffinityTerm. */
export interface AffinityTerm {
  readonly namespaces: ReadonlySet<string>;
  readonly selector: LabelMatcher;
  readonly topologyKey: string;
}

export interface WeightedAffinityTerm extends AffinityTerm {
  readonly weight: number;
}

/** All four term lists of a pod; a list whose selector failed to parse is empty and parseError set. */
export interface ParsedAffinity {
  readonly requiredAffinity: readonly AffinityTerm[];
  readonly requiredAntiAffinity: readonly AffinityTerm[];
  readonly preferredAffinity: readonly WeightedAffinityTerm[];
  readonly preferredAntiAffinity: readonly WeightedAffinityTerm[];
  readonly parseError: string | undefined;
}

const NONE: readonly never[] = Object.freeze([]);
const EMPTY: ParsedAffinity = Object.freeze({
  requiredAffinity: NONE,
  requiredAntiAffinity: NONE,
  preferredAffinity: NONE,
  preferredAntiAffinity: NONE,
  parseError: undefined,
});

// Upstream's getNamespacesFromPodAffinityTerm; namespaceSelector is ignored as 1.21 does by
// default (the PodAffinityNamespaceSelector feature gate is alpha and off).
function newTerm(pod: Pod, t: PodAffinityTerm): AffinityTerm {
  const selector = labelSelectorFromObject(t.labelSelector);
  const ns = (t.namespaces?.length ?? 0) === 0 && (t.namespaceSelector ?? null) === null ? [pod.metadata.namespace ?? ''] : (t.namespaces ?? []);
  return { namespaces: new Set(ns), selector, topologyKey: t.topologyKey ?? '' };
}

function parse(pod: Pod): ParsedAffinity {
  const a = pod.spec.affinity;
  if (a === undefined || (a.podAffinity === undefined && a.podAntiAffinity === undefined)) return EMPTY;
  const errs: string[] = [];
  const list = <T, R>(what: string, terms: readonly T[] | undefined, f: (t: T) => R): readonly R[] => {
    if (terms === undefined || terms.length === 0) return NONE;
    try {
      return terms.map(f);
    } catch (e) {
      errs.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
      return NONE;
    }
  };
  const weighted = (w: WeightedPodAffinityTerm): WeightedAffinityTerm => ({ ...newTerm(pod, w.podAffinityTerm), weight: w.weight });
  return {
    requiredAffinity: list('requiredAffinityTerms', a.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, (t) => newTerm(pod, t)),
    requiredAntiAffinity: list('requiredAntiAffinityTerms', a.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, (t) => newTerm(pod, t)),
    preferredAffinity: list('preferredAffinityTerms', a.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution, weighted),
    preferredAntiAffinity: list('preferredAntiAffinityTerms', a.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, weighted),
    parseError: errs.length > 0 ? errs.join(', ') : undefined,
  };
}

const DERIVED = Symbol('InterPodAffinity.terms');
const incoming = new WeakMap<Pod, ParsedAffinity>();

/** The terms of a pod already in the cache (memoized on its PodInfo). */
export function termsOf(pi: PodInfo): ParsedAffinity {
  return pi.derived(DERIVED, parse);
}

/** The terms of the pod being scheduled (memoized per pod object). */
export function termsOfPod(pod: Pod): ParsedAffinity {
  let p = incoming.get(pod);
  if (p === undefined) incoming.set(pod, (p = parse(pod)));
  return p;
}

/** Upstream's AffinityTerm.Matches: namespace and label selector. */
export function termMatches(t: AffinityTerm, pod: Pod): boolean {
  return t.namespaces.has(pod.metadata.namespace ?? '') && t.selector(pod.metadata.labels);
}

/** True iff the pod matches every term (false for no terms). */
export function podMatchesAllTerms(terms: readonly AffinityTerm[], pod: Pod): boolean {
  if (terms.length === 0) return false;
  for (const t of terms) if (!termMatches(t, pod)) return false;
  return true;
}

/** The value of a node label, undefined when the node lacks it. */
export function nodeLabel(node: Node, key: string): string | undefined {
  const v = node.metadata.labels?.[key];
  return typeof v === 'string' ? v : undefined;
}

/** Map key of a (topologyKey, value) pair; NUL cannot occur in label keys. */
export function pairKey(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

/** Memo keys of an incoming pod: everything per-node results depend on besides the node. */
export interface PodKeys {
  /** Namespace, labels and required terms (PreFilter). */
  readonly filter: string;
  /** Namespace, labels and preferred terms (PreScore). */
  readonly score: string;
}

const keys = new WeakMap<Pod, PodKeys>();

/** The memo keys of the pod being scheduled (computed once per pod object). */
export function keysOfPod(pod: Pod): PodKeys {
  let k = keys.get(pod);
  if (k === undefined) {
    const a = pod.spec.affinity;
    const who = [pod.metadata.namespace ?? '', pod.metadata.labels ?? null];
    k = {
      filter: JSON.stringify([
        ...who,
        a?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null,
        a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null,
      ]),
      score: JSON.stringify([
        ...who,
        a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? null,
        a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? null,
      ]),
    };
    keys.set(pod, k);
  }
  return k;
}
