/**
 * PodDisruptionBudget (policy/v1): upstream's ValidatePodDisruptionBudget (minAvailable and
 * maxUnavailable not both, each a non-negative count or a percentage up to 100%, a valid
 * selector) and ValidatePodDisruptionBudgetStatusUpdate (1.25).
 */
import { resetStatus } from '../../machinery/defaulting.js';
import { validateConditions } from '../../machinery/condition-validation.js';
import { isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../machinery/int-or-percent.js';
import { validateLabelSelector } from '../../machinery/label-selector.js';
import type { Obj } from '../../machinery/object.js';
import { type FieldError, invalid } from '../../machinery/status.js';
import { isSet, num, rec } from '../../machinery/fields.js';
import { validateNonnegativeField } from '../core/value-validation.js';
import { labelSelectorOf } from '../apps/workload-validation.js';
import { policy } from '../groups.js';

/** Upstream's ValidatePodDisruptionBudgetSpec at spec. */
export function validatePodDisruptionBudget(obj: Obj): FieldError[] {
  const spec = rec(obj.spec);
  const errs: FieldError[] = [];
  // Upstream shows the whole spec struct here (its %#v holds pointers); the JSON spec stands in.
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable)) errs.push(invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  for (const key of ['minAvailable', 'maxUnavailable']) {
    if (!isSet(spec[key])) continue;
    errs.push(...validatePositiveIntOrPercent(spec[key], `spec.${key}`), ...isNotMoreThan100Percent(spec[key], `spec.${key}`));
  }
  const sel = labelSelectorOf(spec.selector);
  if (sel !== undefined) errs.push(...validateLabelSelector(sel, 'spec.selector'));
  return errs;
}

const STATUS_COUNTERS = ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'];

/** Upstream's ValidatePodDisruptionBudgetStatusUpdate for policy/v1. */
export function validatePodDisruptionBudgetStatus(obj: Obj): FieldError[] {
  const status = rec(obj.status);
  return [
    ...validateConditions(status.conditions, 'status.conditions'),
    ...STATUS_COUNTERS.flatMap((n) => validateNonnegativeField(num(status[n]), `status.${n}`)),
  ];
}

export const podDisruptionBudgets = policy({
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  shortNames: ['pdb'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
  strategy: {
    // The status's four counters are not omitempty: a new budget shows them as 0.
    prepareForCreate: (obj) => resetStatus(obj, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
    validate: validatePodDisruptionBudget,
    validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? validatePodDisruptionBudgetStatus(obj) : validatePodDisruptionBudget(obj)),
  },
});
