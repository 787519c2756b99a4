/**
 * Rules the pod-managing workloads share (apps, and batch's Jobs): the label selector (required,
 * valid, non-empty), the selector matching the pod template's labels, the template's restart
 * policy, selector immutability in apps/v1, and the status counters' checks.
 */
import { goLabelSelector, goStringMap } from '../../machinery/go-format.js';
import { type LabelMatcher, type LabelSelector, labelSelectorFromObject, validateLabelSelector } from '../../machinery/label-selector.js';
import { type FieldError, forbiddenField, invalid, notSupported, required } from '../../machinery/status.js';
import { isSet, type Rec, rec, recOrNil, records, str, strMap, strings } from '../../machinery/fields.js';
import { FIELD_IMMUTABLE_ERROR_MSG, validateNonnegativeField } from '../core/value-validation.js';
import { semanticEqual } from '../core/semantic.js';

/** A metav1.LabelSelector read from JSON, or undefined for a nil selector. */
export function labelSelectorOf(v: unknown): LabelSelector | undefined {
  const sel = recOrNil(v);
  if (sel === undefined) return undefined;
  const out: LabelSelector = {};
  if (isSet(sel.matchLabels)) out.matchLabels = strMap(sel.matchLabels);
  if (isSet(sel.matchExpressions)) {
    out.matchExpressions = records(sel.matchExpressions).map((e) => ({
      key: str(e.key),
      operator: str(e.operator),
      ...(isSet(e.values) ? { values: strings(e.values) } : {}),
    }));
  }
  return out;
}

/** True when the selector has neither matchLabels nor matchExpressions. */
export function isEmptySelector(sel: LabelSelector): boolean {
  return Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0;
}

/**
 * Upstream's LabelSelectorAsSelector: nothing for a nil selector, everything for an empty one,
 * undefined when the selector does not compile (upstream's err != nil).
 */
export function compileSelector(sel: LabelSelector | undefined): LabelMatcher | undefined {
  try {
    return labelSelectorFromObject(sel);
  } catch {
    return undefined;
  }
}

/**
 * A workload's `spec.selector`: required, a valid label selector, and not empty
 * (`empty selector is invalid for <word>`, upstream's wording per type).
 */
export function requiredSelectorErrors(raw: unknown, fldPath: string, typeWord: string): FieldError[] {
  const sel = labelSelectorOf(raw);
  if (sel === undefined) return [required(fldPath, '')];
  const errs = validateLabelSelector(sel, fldPath);
  if (isEmptySelector(sel)) errs.push(invalid(fldPath, goLabelSelector(raw), `empty selector is invalid for ${typeWord}`));
  return errs;
}

/** The template's labels must be selected by the workload's selector. */
export function selectorMismatch(matcher: LabelMatcher, template: Rec, templatePath: string): FieldError[] {
  const labels = strMap(rec(template.metadata).labels);
  if (matcher(labels)) return [];
  return [invalid(`${templatePath}.metadata.labels`, goStringMap(labels), '`selector` does not match template `labels`')];
}

/** A template that a non-empty selector must match (upstream skips the check for an empty selector). */
export function templateSelectorErrors(matcher: LabelMatcher, template: Rec, templatePath: string): FieldError[] {
  return matcher.isEverything ? [] : selectorMismatch(matcher, template, templatePath);
}

/** Long-running workloads restart their pods always and never set a pod deadline. */
export function alwaysRestartErrors(template: Rec, templatePath: string, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const podSpec = rec(template.spec);
  const restartPolicy = str(podSpec.restartPolicy);
  if (restartPolicy !== 'Always') errs.push(notSupported(`${templatePath}.spec.restartPolicy`, restartPolicy, ['Always']));
  if (isSet(podSpec.activeDeadlineSeconds)) {
    errs.push(forbiddenField(`${templatePath}.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errs;
}

/** apps/v1 forbids changing a workload's selector (upstream's strategy check for every non-beta version). */
export function immutableSelectorErrors(spec: Rec, oldSpec: Rec): FieldError[] {
  if (semanticEqual(spec.selector, oldSpec.selector)) return [];
  return [invalid('spec.selector', goLabelSelector(spec.selector), FIELD_IMMUTABLE_ERROR_MSG)];
}

/** Non-negative checks of the named counters under fldPath (absent counters read as 0). */
export function nonnegativeCounters(obj: Rec, names: readonly string[], fldPath: string): FieldError[] {
  return names.flatMap((n) => (typeof obj[n] === 'number' ? validateNonnegativeField(obj[n] as number, `${fldPath}.${n}`) : []));
}

/** Counters that may not exceed `status.<bound>` (`cannot be greater than status.replicas`). */
export function boundedCounters(status: Rec, names: readonly string[], bound: string, message: string): FieldError[] {
  const limit = typeof status[bound] === 'number' ? (status[bound] as number) : 0;
  return names.flatMap((n) => (typeof status[n] === 'number' && (status[n] as number) > limit ? [invalid(`status.${n}`, status[n], message)] : []));
}

/** Upstream's IsDecremented on status.collisionCount: a count that went down or away. */
export function collisionCountDecremented(status: Rec, oldStatus: Rec): FieldError[] {
  const now = status.collisionCount;
  const before = oldStatus.collisionCount;
  if (typeof before !== 'number') return [];
  if (typeof now === 'number' && now >= before) return [];
  return [invalid('status.collisionCount', typeof now === 'number' ? now : 0, 'cannot be decremented')];
}
