/**
 * Upstream's (1.25) validateMetrics and validateBehavior of a HorizontalPodAutoscaler spec, on
 * the v2 form (upstream's internal form is v2's, so every version reports these paths).
 */
import { type Rec, isSet, list, rec, recOrNil, records, str } from '../../machinery/fields.js';
import { parseQuantity, quantitySign } from '../../machinery/quantity.js';
import { type FieldError, PrintedValue, forbiddenField, invalid, notSupported, required } from '../../machinery/status.js';
import { isDNS1123Label, isValidPathSegmentName } from '../../machinery/validation.js';
import { validateContainerResourceName } from '../core/resource-validation.js';

const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
/** Source field of each metric type. */
const SOURCE_OF: ReadonlyMap<string, string> = new Map([
  ['Object', 'object'],
  ['Pods', 'pods'],
  ['Resource', 'resource'],
  ['External', 'external'],
  ['ContainerResource', 'containerResource'],
]);
/** The order upstream checks which sources are present. */
const SOURCE_CHECK_ORDER = ['object', 'external', 'pods', 'resource', 'containerResource'];
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;

function positiveQuantity(v: unknown, path: string): FieldError[] {
  if (!isSet(v)) return [];
  try {
    if (quantitySign(parseQuantity(v as string)) === 1) return [];
  } catch {
    // A malformed quantity fails decoding before validation; nothing more to say here.
    return [];
  }
  return [invalid(path, new PrintedValue(String(v)), 'must be positive')];
}

function validateMetricTarget(t: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(t.type);
  if (type === '') errs.push(required(`${path}.type`, 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue')
    errs.push(invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  errs.push(...positiveQuantity(t.value, `${path}.value`), ...positiveQuantity(t.averageValue, `${path}.averageValue`));
  if (typeof t.averageUtilization === 'number' && t.averageUtilization < 1)
    errs.push(invalid(`${path}.averageUtilization`, t.averageUtilization, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(id: Rec, path: string): FieldError[] {
  const name = str(id.name);
  if (name === '') return [required(`${path}.name`, 'must specify a metric name')];
  return isValidPathSegmentName(name).map((m) => invalid(`${path}.name`, name, m));
}

/** Upstream's ValidateCrossVersionObjectReference. */
export function validateCrossVersionObjectReference(ref: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name']) {
    const v = str(ref[key]);
    if (v === '') errs.push(required(`${path}.${key}`, ''));
    else errs.push(...isValidPathSegmentName(v).map((m) => invalid(`${path}.${key}`, v, m)));
  }
  return errs;
}

function validateSource(field: string, s: Rec, path: string): FieldError[] {
  const t = rec(s.target);
  const target = `${path}.target`;
  switch (field) {
    case 'object': {
      const errs = [
        ...validateCrossVersionObjectReference(rec(s.describedObject), `${path}.describedObject`),
        ...validateMetricIdentifier(rec(s.metric), `${path}.metric`),
        ...validateMetricTarget(t, target),
      ];
      if (!isSet(t.value) && !isSet(t.averageValue)) errs.push(required(`${target}.averageValue`, 'must set either a target value or averageValue'));
      return errs;
    }
    case 'external': {
      const errs = [...validateMetricIdentifier(rec(s.metric), `${path}.metric`), ...validateMetricTarget(t, target)];
      if (!isSet(t.value) && !isSet(t.averageValue))
        errs.push(required(`${target}.averageValue`, 'must set either a target value for metric or a per-pod target'));
      if (isSet(t.value) && isSet(t.averageValue))
        errs.push(forbiddenField(`${target}.value`, 'may not set both a target value for metric and a per-pod target'));
      return errs;
    }
    case 'pods': {
      const errs = [...validateMetricIdentifier(rec(s.metric), `${path}.metric`), ...validateMetricTarget(t, target)];
      if (!isSet(t.averageValue)) errs.push(required(`${target}.averageValue`, 'must specify a positive target averageValue'));
      return errs;
    }
    default: {
      // resource and containerResource
      const errs: FieldError[] = [];
      const name = str(s.name);
      if (name === '') errs.push(required(`${path}.name`, 'must specify a resource name'));
      else if (field === 'containerResource') errs.push(...validateContainerResourceName(name, `${path}.name`));
      if (field === 'containerResource') {
        const container = str(s.container);
        if (container === '') errs.push(required(`${path}.container`, 'must specify a container'));
        else errs.push(...isDNS1123Label(container).map((m) => invalid(`${path}.container`, container, m)));
      }
      errs.push(...validateMetricTarget(t, target));
      if (!isSet(t.averageUtilization) && !isSet(t.averageValue))
        errs.push(required(`${target}.averageUtilization`, 'must set either a target raw value or a target utilization'));
      if (isSet(t.averageUtilization) && isSet(t.averageValue))
        errs.push(forbiddenField(`${target}.averageValue`, 'may not set both a target raw value and a target utilization'));
      return errs;
    }
  }
}

function validateMetricSpec(m: Rec, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(m.type);
  if (type === '') errs.push(required(`${path}.type`, 'must specify a metric source type'));
  const present = SOURCE_CHECK_ORDER.filter((f) => isSet(m[f]));
  // Only the first source present is looked into.
  if (present.length > 0) errs.push(...validateSource(present[0], rec(m[present[0]]), `${path}.${present[0]}`));
  const expected = SOURCE_OF.get(type);
  if (expected === undefined) errs.push(notSupported(`${path}.type`, type, METRIC_SOURCE_TYPES));
  else if (!isSet(m[expected])) errs.push(required(`${path}.${expected}`, 'must populate information for the given metric source'));
  if (present.length !== 1) {
    for (const f of present) if (f !== expected) errs.push(forbiddenField(`${path}.${f}`, 'must populate the given metric source only'));
  }
  return errs;
}

/** Upstream's validateMetrics. */
export function validateMetrics(metrics: unknown, minReplicas: number | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const specs = records(metrics);
  for (const [i, m] of specs.entries()) errs.push(...validateMetricSpec(m, `spec.metrics[${i}]`));
  if (minReplicas === 0 && !specs.some((m) => m.type === 'Object' || m.type === 'External')) {
    errs.push(forbiddenField('spec.metrics', 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  return errs;
}

function validateScalingRules(rules: Rec | undefined, path: string): FieldError[] {
  if (rules === undefined) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0) errs.push(invalid(`${path}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  if (typeof window === 'number' && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(invalid(`${path}.stabilizationWindowSeconds`, window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (isSet(rules.selectPolicy) && !['Disabled', 'Max', 'Min'].includes(str(rules.selectPolicy))) {
    errs.push(notSupported(`${path}.selectPolicy`, rules.selectPolicy, ['Disabled', 'Max', 'Min']));
  }
  const policies = records(list(rules.policies));
  if (policies.length === 0) errs.push(required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const at = `${path}.policies[${i}]`;
    const type = str(p.type);
    if (type !== 'Pods' && type !== 'Percent') errs.push(notSupported(`${at}.type`, type, ['Percent', 'Pods']));
    const value = typeof p.value === 'number' ? p.value : 0;
    const period = typeof p.periodSeconds === 'number' ? p.periodSeconds : 0;
    if (value <= 0) errs.push(invalid(`${at}.value`, value, 'must be greater than zero'));
    if (period <= 0) errs.push(invalid(`${at}.periodSeconds`, period, 'must be greater than zero'));
    if (period > MAX_PERIOD_SECONDS) errs.push(invalid(`${at}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return errs;
}

/** Upstream's validateBehavior. */
export function validateBehavior(behavior: unknown): FieldError[] {
  const b = recOrNil(behavior);
  if (b === undefined) return [];
  return [...validateScalingRules(recOrNil(b.scaleUp), 'spec.behavior.scaleUp'), ...validateScalingRules(recOrNil(b.scaleDown), 'spec.behavior.scaleDown')];
}
