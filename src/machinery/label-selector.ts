/**
 * Label selectors as upstream's apimachinery pkg/labels (string form) and metav1.LabelSelector
 * (object form), compiled once into a matcher that is cheap enough to run per object per
 * watch event. Parse errors carry upstream's messages word for word.
 *
 * Errors: string selectors (`?labelSelector=`) throw badRequest, as the API server answers 400.
 * Object selectors are validated by validateLabelSelector (FieldError[], for 422 Invalid);
 * labelSelectorFromObject throws badRequest with LabelSelectorAsSelector's message when given
 * an invalid one (it normally runs on already-validated objects).
 */

import type { FieldError } from './status.js';
import { badRequest, forbiddenField, invalid, required } from './status.js';
import type { LabelOperator, LabelRequirement } from './label-selector-parser.js';
import { parseInt64, parseLabelRequirements, requirementError } from './label-selector-parser.js';
import { compareGoStrings, goQuote, isValidLabelValue, validateLabelName, validateLabels } from './validation.js';

export type { LabelOperator, LabelRequirement } from './label-selector-parser.js';

export type Labels = Readonly<Record<string, string>>;

/** A compiled selector: call it with an object's labels. */
export interface LabelMatcher {
  (labels: Labels | undefined | null): boolean;
  /** Selects every object (empty selector): callers may skip matching altogether. */
  readonly isEverything: boolean;
  /** Selects no object (a nil metav1.LabelSelector). */
  readonly isNothing: boolean;
  /** Sorted by key, as upstream's internalSelector. */
  readonly requirements: readonly LabelRequirement[];
  /** Upstream's Selector.String(): canonical text, `''` for everything. */
  readonly text: string;
  /** The single value the selector requires for key (`=`, `==`, or `in` with one value), if any. */
  requiresExactMatch(key: string): string | undefined;
}

/** The metav1.LabelSelector API type. */
export interface LabelSelector {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: LabelSelectorRequirement[] | null;
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[] | null;
}

const NO_LABELS: Labels = Object.freeze({});

// ---- compiling ----

type Test = (labels: Labels) => boolean;

// Label maps are plain JSON objects: an absent key reads as undefined, and inherited
// Object.prototype members are never strings, so `typeof === 'string'` is an own-key test.
function compileRequirement(r: LabelRequirement): Test {
  const { key, values } = r;
  switch (r.operator) {
    case '=':
    case '==':
    case 'in': {
      if (values.length === 1) {
        const v = values[0];
        return (l) => l[key] === v;
      }
      const set = new Set(values);
      return (l) => {
        const x = l[key];
        return typeof x === 'string' && set.has(x);
      };
    }
    case '!=':
    case 'notin': {
      if (values.length === 1) {
        const v = values[0];
        return (l) => l[key] !== v;
      }
      const set = new Set(values);
      return (l) => {
        const x = l[key];
        return typeof x !== 'string' || !set.has(x);
      };
    }
    case 'exists':
      return (l) => typeof l[key] === 'string';
    case '!':
      return (l) => typeof l[key] !== 'string';
    case 'gt':
    case 'lt': {
      // Upstream compares as int64; a requirement that is not exactly one integer matches nothing.
      const bound = values.length === 1 ? parseInt64(values[0]) : undefined;
      if (bound === undefined) return () => false;
      const gt = r.operator === 'gt';
      return (l) => {
        const x = l[key];
        if (typeof x !== 'string') return false;
        const n = parseInt64(x);
        if (n === undefined) return false;
        return gt ? n > bound : n < bound;
      };
    }
  }
}

function requirementText(r: LabelRequirement): string {
  const prefix = r.operator === '!' ? '!' : '';
  if (r.operator === 'exists' || r.operator === '!') return `${prefix}${r.key}`;
  const vals = r.values.length === 1 ? r.values[0] : [...r.values].sort(compareGoStrings).join(',');
  switch (r.operator) {
    case 'in':
      return `${r.key} in (${vals})`;
    case 'notin':
      return `${r.key} notin (${vals})`;
    case 'gt':
      return `${r.key}>${vals}`;
    case 'lt':
      return `${r.key}<${vals}`;
    default:
      return `${r.key}${r.operator}${vals}`;
  }
}

function makeMatcher(reqs: LabelRequirement[], nothing = false): LabelMatcher {
  reqs.sort((a, b) => compareGoStrings(a.key, b.key));
  let test: (labels: Labels | undefined | null) => boolean;
  if (nothing) test = () => false;
  else if (reqs.length === 0) test = () => true;
  else {
    const tests = reqs.map(compileRequirement);
    if (tests.length === 1) {
      const [a] = tests;
      test = (l) => a(l ?? NO_LABELS);
    } else if (tests.length === 2) {
      const [a, b] = tests;
      test = (l) => {
        const x = l ?? NO_LABELS;
        return a(x) && b(x);
      };
    } else {
      test = (l) => {
        const x = l ?? NO_LABELS;
        for (let i = 0; i < tests.length; i++) if (!tests[i](x)) return false;
        return true;
      };
    }
  }
  const frozen = Object.freeze(reqs.map((r) => Object.freeze({ ...r, values: Object.freeze([...r.values]) })));
  return Object.assign(test, {
    isEverything: !nothing && reqs.length === 0,
    isNothing: nothing,
    requirements: frozen,
    text: reqs.map(requirementText).join(','),
    requiresExactMatch(key: string): string | undefined {
      // Upstream looks only at the first requirement for the key.
      const r = frozen.find((x) => x.key === key);
      if (r === undefined) return undefined;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
      return undefined;
    },
  });
}

/** Matches every label set; shared because matchers are immutable. */
export const EVERYTHING: LabelMatcher = makeMatcher([]);
/** Matches no label set (upstream's labels.Nothing()). */
export const NOTHING: LabelMatcher = makeMatcher([], true);

// Clients re-send the same few selectors (every watch of a controller); parsing once is enough.
const CACHE_LIMIT = 512;
const cache = new Map<string, LabelMatcher>();

/** Parses a `?labelSelector=` string; throws badRequest with upstream's message when invalid. */
export function parseLabelSelector(selector: string): LabelMatcher {
  const hit = cache.get(selector);
  if (hit !== undefined) return hit;
  const reqs = parseLabelRequirements(selector);
  const m = reqs.length === 0 ? EVERYTHING : makeMatcher(reqs);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(selector, m);
  return m;
}

/** Upstream's SelectorFromSet: key=value for each entry, unvalidated; empty or absent selects everything. */
export function labelSelectorFromSet(set: Labels | undefined | null): LabelMatcher {
  if (set === undefined || set === null) return EVERYTHING;
  const keys = Object.keys(set);
  if (keys.length === 0) return EVERYTHING;
  return makeMatcher(keys.map((key) => ({ key, operator: '=', values: [set[key]] })));
}

const OBJECT_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * Upstream's LabelSelectorAsSelector: null/undefined selects nothing, an empty selector
 * everything; an invalid selector throws badRequest with upstream's message.
 */
export function labelSelectorFromObject(sel: LabelSelector | undefined | null): LabelMatcher {
  if (sel === undefined || sel === null) return NOTHING;
  const ml = sel.matchLabels ?? {};
  const me = sel.matchExpressions ?? [];
  const labelKeys = Object.keys(ml);
  if (labelKeys.length + me.length === 0) return EVERYTHING;
  const reqs: LabelRequirement[] = [];
  for (const key of labelKeys) {
    const values = [ml[key]];
    const err = requirementError(key, '=', values, 'key');
    if (err !== undefined) throw badRequest(err);
    reqs.push({ key, operator: '=', values });
  }
  for (const expr of me) {
    const operator = Object.hasOwn(OBJECT_OPERATORS, expr.operator) ? OBJECT_OPERATORS[expr.operator] : undefined;
    if (operator === undefined) throw badRequest(`${goQuote(String(expr.operator))} is not a valid pod selector operator`);
    const values = expr.values ?? [];
    const err = requirementError(expr.key, operator, values, 'key');
    if (err !== undefined) throw badRequest(err);
    reqs.push({ key: expr.key, operator, values: [...values] });
  }
  return makeMatcher(reqs);
}

export interface LabelSelectorValidationOptions {
  /** Upstream's AllowInvalidLabelValueInSelector: only for objects already stored with bad values. */
  allowInvalidLabelValueInSelector?: boolean;
}

/** Upstream's ValidateLabelSelector: field errors under fldPath (e.g. `spec.selector`); none for null. */
export function validateLabelSelector(sel: LabelSelector | undefined | null, fldPath: string, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  if (sel === undefined || sel === null) return [];
  const errs = validateLabels(sel.matchLabels, `${fldPath}.matchLabels`);
  const exprs = sel.matchExpressions ?? [];
  for (let i = 0; i < exprs.length; i++) {
    errs.push(...validateLabelSelectorRequirement(exprs[i], `${fldPath}.matchExpressions[${i}]`, opts));
  }
  return errs;
}

/**
 * The values rule of a set-based selector operator, shared by label and node selectors: In and
 * NotIn need values, Exists and DoesNotExist take none; any other operator is invalid.
 */
export function validateSetOperator(operator: string, values: readonly unknown[], fldPath: string): FieldError[] {
  switch (operator) {
    case 'In':
    case 'NotIn':
      return values.length === 0 ? [required(`${fldPath}.values`, "must be specified when `operator` is 'In' or 'NotIn'")] : [];
    case 'Exists':
    case 'DoesNotExist':
      return values.length > 0 ? [forbiddenField(`${fldPath}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")] : [];
    default:
      return [invalid(`${fldPath}.operator`, operator, 'not a valid selector operator')];
  }
}

/** Upstream's ValidateLabelSelectorRequirement. */
export function validateLabelSelectorRequirement(sr: LabelSelectorRequirement, fldPath: string, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  const values = sr.values ?? [];
  const errs = validateSetOperator(sr.operator, values, fldPath);
  errs.push(...validateLabelName(sr.key, `${fldPath}.key`));
  if (!opts.allowInvalidLabelValueInSelector) {
    for (let i = 0; i < values.length; i++) {
      for (const m of isValidLabelValue(values[i])) errs.push(invalid(`${fldPath}.values[${i}]`, values[i], m));
    }
  }
  return errs;
}
