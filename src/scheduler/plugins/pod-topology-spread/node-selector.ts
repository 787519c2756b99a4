/**
 * Upstream's helper.PodMatchesNodeSelectorAndAffinityTerms: spreading counts only nodes that
 * pass the pod's nodeSelector and required node affinity. Compiled once per pod object.
 */
import { labelSelectorFromSet } from '../../../machinery/label-selector.js';
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Pod } from '../../framework/types.js';

type NodeTest = (node: Node) => boolean;

const INT = /^[+-]?\d+$/;

// One requirement; undefined when invalid, which makes its whole term match nothing (1.21).
function compileRequirement(r: NodeSelectorRequirement, field: boolean): NodeTest | undefined {
  const values = r.values ?? [];
  const get = field ? (n: Node) => (r.key === 'metadata.name' ? n.metadata.name : undefined) : (n: Node) => n.metadata.labels?.[r.key];
  const read = (n: Node): string | undefined => {
    const v = get(n);
    return typeof v === 'string' ? v : undefined;
  };
  if (field && (r.key !== 'metadata.name' || (r.operator !== 'In' && r.operator !== 'NotIn') || values.length !== 1)) return undefined;
  switch (r.operator) {
    case 'In':
    case 'NotIn': {
      if (values.length === 0) return undefined;
      const set = new Set(values);
      const want = r.operator === 'In';
      return (n) => {
        const v = read(n);
        return v !== undefined && set.has(v) ? want : !want;
      };
    }
    case 'Exists':
    case 'DoesNotExist': {
      if (values.length > 0) return undefined;
      const want = r.operator === 'Exists';
      return (n) => (read(n) !== undefined) === want;
    }
    case 'Gt':
    case 'Lt': {
      if (values.length !== 1 || !INT.test(values[0])) return undefined;
      const bound = Number(values[0]);
      const gt = r.operator === 'Gt';
      return (n) => {
        const v = read(n);
        if (v === undefined || !INT.test(v)) return false;
        return gt ? Number(v) > bound : Number(v) < bound;
      };
    }
    default:
      return undefined;
  }
}

function compileTerm(t: NodeSelectorTerm): NodeTest | undefined {
  const tests: NodeTest[] = [];
  for (const r of t.matchExpressions ?? []) {
    const c = compileRequirement(r, false);
    if (c === undefined) return undefined;
    tests.push(c);
  }
  for (const r of t.matchFields ?? []) {
    const c = compileRequirement(r, true);
    if (c === undefined) return undefined;
    tests.push(c);
  }
  // A term without requirements matches no node.
  if (tests.length === 0) return undefined;
  return (n) => tests.every((f) => f(n));
}

function compile(pod: Pod): NodeTest {
  const ns = pod.spec.nodeSelector;
  const bySelector = ns !== undefined && Object.keys(ns).length > 0 ? labelSelectorFromSet(ns) : undefined;
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = required === undefined ? undefined : (required.nodeSelectorTerms ?? []).map(compileTerm).filter((t) => t !== undefined);
  if (bySelector === undefined && terms === undefined) return () => true;
  return (n) => (bySelector === undefined || bySelector(n.metadata.labels)) && (terms === undefined || terms.some((t) => t(n)));
}

const compiled = new WeakMap<Pod, NodeTest>();

/** The pod's nodeSelector and required node affinity as one test (compiled once per pod object). */
export function nodeSelectorTest(pod: Pod): NodeTest {
  let f = compiled.get(pod);
  if (f === undefined) compiled.set(pod, (f = compile(pod)));
  return f;
}

/** True when the node passes the pod's nodeSelector and required node affinity. */
export function podMatchesNodeSelectorAndAffinityTerms(pod: Pod, node: Node): boolean {
  return nodeSelectorTest(pod)(node);
}

/** A string identifying what nodeSelectorTest(pod) accepts (the pod's nodeSelector and required node affinity). */
export function nodeSelectorKey(pod: Pod): string {
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  // undefined members are left out, null ones kept: the test tells them apart.
  return JSON.stringify({ s: pod.spec.nodeSelector, r: required });
}
