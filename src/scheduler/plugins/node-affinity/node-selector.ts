/**
 * Node selectors as upstream's component-helpers nodeaffinity: terms ORed, requirements within a
 * term ANDed; matchExpressions against node labels (In, NotIn, Exists, DoesNotExist, Gt, Lt),
 * matchFields against `metadata.name` (In, NotIn with one value). Compiled once per pod.
 */
import { type LabelOperator, parseInt64, requirementError } from '../../../machinery/label-selector-parser.js';
import type { Node, NodeSelectorRequirement, NodeSelectorTerm } from '../../framework/types.js';

type Labels = Readonly<Record<string, string>>;
type LabelTest = (labels: Labels) => boolean;

const OPERATORS: Readonly<Record<string, LabelOperator>> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!', Gt: 'gt', Lt: 'lt' };
const NO_LABELS: Labels = Object.freeze({});

/** One requirement on labels; label maps are plain JSON, so `typeof === 'string'` tests presence. */
function labelTest(key: string, op: LabelOperator, values: readonly string[]): LabelTest {
  switch (op) {
    case 'in': {
      const set = new Set(values);
      return (l) => typeof l[key] === 'string' && set.has(l[key]);
    }
    case 'notin': {
      const set = new Set(values);
      return (l) => typeof l[key] !== 'string' || !set.has(l[key]);
    }
    case 'exists':
      return (l) => typeof l[key] === 'string';
    case '!':
      return (l) => typeof l[key] !== 'string';
    default: {
      // Gt/Lt: validated to exactly one integer; a label that is not an integer never matches.
      const bound = parseInt64(values[0]) as bigint;
      const gt = op === 'gt';
      return (l) => {
        const x = l[key];
        if (typeof x !== 'string') return false;
        const v = parseInt64(x);
        return v !== undefined && (gt ? v > bound : v < bound);
      };
    }
  }
}

/** A compiled term: `errors` non-empty means the term matches nothing (upstream's parseErrs). */
export interface CompiledTerm {
  readonly errors: readonly string[];
  readonly labels: LabelTest | undefined;
  /** Tests on the fields set, which holds only metadata.name. */
  readonly fields: ((name: string) => boolean) | undefined;
}

function compileLabelRequirements(reqs: readonly NodeSelectorRequirement[], path: string, errors: string[]): LabelTest | undefined {
  const tests: LabelTest[] = [];
  reqs.forEach((r, i) => {
    const op = Object.hasOwn(OPERATORS, r.operator) ? OPERATORS[r.operator] : undefined;
    if (op === undefined) {
      errors.push(`${path}[${i}].operator: Unsupported value: ${JSON.stringify(r.operator)}`);
      return;
    }
    const values = r.values ?? [];
    const err = requirementError(r.key, op, values, 'key');
    if (err !== undefined) errors.push(`${path}[${i}]: ${err}`);
    else tests.push(labelTest(r.key, op, values));
  });
  return (l) => {
    for (const t of tests) if (!t(l)) return false;
    return true;
  };
}

function compileFieldRequirements(reqs: readonly NodeSelectorRequirement[], path: string, errors: string[]): (name: string) => boolean {
  const tests: ((name: string) => boolean)[] = [];
  reqs.forEach((r, i) => {
    const values = r.values ?? [];
    if (values.length !== 1) {
      errors.push(`${path}[${i}].values: Invalid value: ${JSON.stringify(values)}: must have one element`);
      return;
    }
    // Fields other than metadata.name read as "" (fields.Set.Get on a missing key).
    const get = r.key === 'metadata.name' ? (name: string) => name : () => '';
    const v = values[0];
    if (r.operator === 'In') tests.push((name) => get(name) === v);
    else if (r.operator === 'NotIn') tests.push((name) => get(name) !== v);
    else errors.push(`${path}[${i}].operator: Unsupported value: ${JSON.stringify(r.operator)}: supported values: "In", "NotIn"`);
  });
  return (name) => {
    for (const t of tests) if (!t(name)) return false;
    return true;
  };
}

/** Upstream's isEmptyNodeSelectorTerm: such terms are skipped (they match nothing). */
export function isEmptyTerm(t: NodeSelectorTerm): boolean {
  return (t.matchExpressions?.length ?? 0) === 0 && (t.matchFields?.length ?? 0) === 0;
}

export function compileTerm(t: NodeSelectorTerm, path: string): CompiledTerm {
  const errors: string[] = [];
  const labels = (t.matchExpressions?.length ?? 0) > 0 ? compileLabelRequirements(t.matchExpressions!, `${path}.matchExpressions`, errors) : undefined;
  const fields = (t.matchFields?.length ?? 0) > 0 ? compileFieldRequirements(t.matchFields!, `${path}.matchFields`, errors) : undefined;
  return { errors, labels, fields };
}

/** nodeSelectorTerm.match: fields are checked only for a node with a name, as upstream's extractNodeFields. */
export function termMatches(t: CompiledTerm, node: Node): boolean {
  if (t.errors.length > 0) return false;
  if (t.labels !== undefined && !t.labels(node.metadata.labels ?? NO_LABELS)) return false;
  const name = node.metadata.name ?? '';
  if (t.fields !== undefined && name !== '' && !t.fields(name)) return false;
  return true;
}

/** A compiled v1.NodeSelector (LazyErrorNodeSelector: invalid terms simply never match). */
export class NodeSelectorMatcher {
  readonly terms: readonly CompiledTerm[];

  constructor(terms: readonly NodeSelectorTerm[], path = 'nodeSelectorTerms') {
    const out: CompiledTerm[] = [];
    terms.forEach((t, i) => {
      if (!isEmptyTerm(t)) out.push(compileTerm(t, `${path}[${i}]`));
    });
    this.terms = out;
  }

  /** Parse errors of all terms (NewNodeSelector's strict mode fails on any). */
  errors(): string[] {
    return this.terms.flatMap((t) => t.errors);
  }

  match(node: Node): boolean {
    for (const t of this.terms) if (termMatches(t, node)) return true;
    return false;
  }
}

/** Preferred terms with weights (PreferredSchedulingTerms); weight-0 and empty terms are dropped. */
export class PreferredTerms {
  readonly terms: readonly { weight: number; term: CompiledTerm }[];

  constructor(terms: readonly { weight: number; preference: NodeSelectorTerm }[], path = '') {
    const out: { weight: number; term: CompiledTerm }[] = [];
    terms.forEach((t, i) => {
      if (!t.weight || isEmptyTerm(t.preference)) return;
      out.push({ weight: t.weight, term: compileTerm(t.preference, `${path}[${i}].preference`) });
    });
    this.terms = out;
  }

  errors(): string[] {
    return this.terms.flatMap((t) => t.term.errors);
  }

  /** Sum of the weights of the terms the node matches. */
  score(node: Node): number {
    let s = 0;
    for (const t of this.terms) if (termMatches(t.term, node)) s += t.weight;
    return s;
  }
}

/** Joins errors as utilerrors.Aggregate does: one alone, several in brackets. */
export function aggregate(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}
