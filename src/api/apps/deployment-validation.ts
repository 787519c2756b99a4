/**
 * Deployment validation as upstream's apps validation (1.25): ValidateDeploymentSpec and its
 * strategy rules, ValidateDeploymentStatusUpdate, and the apps/v1 selector immutability.
 */
import { goIntOrString } from '../../machinery/go-format.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../machinery/int-or-percent.js';
import type { Obj } from '../../machinery/object.js';
import { PrintedValue, type FieldError, forbiddenField, invalid, notSupported, required } from '../../machinery/status.js';
import { goQuote } from '../../machinery/validation.js';
import { isSet, num, type Rec, rec, recOrNil, str } from '../../machinery/fields.js';
import { validateNonnegativeField } from '../core/value-validation.js';
import { replicaSetTemplateErrors } from './replica-set-template.js';
import {
  boundedCounters,
  collisionCountDecremented,
  immutableSelectorErrors,
  labelSelectorOf,
  nonnegativeCounters,
  requiredSelectorErrors,
} from './workload-validation.js';

/** Upstream's ValidateRollingUpdateDeployment. */
function rollingUpdateErrors(ru: Rec, fldPath: string): FieldError[] {
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable ?? 0, `${fldPath}.maxUnavailable`),
    ...validatePositiveIntOrPercent(ru.maxSurge ?? 0, `${fldPath}.maxSurge`),
  ];
  if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
    errs.push(invalid(`${fldPath}.maxUnavailable`, goIntOrString(ru.maxUnavailable ?? 0), 'may not be 0 when `maxSurge` is 0'));
  }
  errs.push(...isNotMoreThan100Percent(ru.maxUnavailable, `${fldPath}.maxUnavailable`));
  return errs;
}

/** A DeploymentStrategy as %#v prints it (the JSON value when its rolling update is set: Go prints an address). */
function strategyValue(strategy: Rec): unknown {
  if (isSet(strategy.rollingUpdate)) return strategy;
  return new PrintedValue(`apps.DeploymentStrategy{Type:${goQuote(str(strategy.type))}, RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}`);
}

/** Upstream's ValidateDeploymentStrategy. */
function strategyErrors(strategy: Rec, fldPath: string): FieldError[] {
  switch (str(strategy.type)) {
    case 'Recreate':
      return isSet(strategy.rollingUpdate) ? [forbiddenField(`${fldPath}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      const ru = recOrNil(strategy.rollingUpdate);
      if (ru === undefined) return [required(`${fldPath}.rollingUpdate`, 'this should be defaulted and never be nil')];
      return rollingUpdateErrors(ru, `${fldPath}.rollingUpdate`);
    }
    default:
      return [notSupported(fldPath, strategyValue(strategy), ['Recreate', 'RollingUpdate'])];
  }
}

/** Upstream's ValidateDeploymentSpec. */
export function deploymentSpecErrors(spec: Rec): FieldError[] {
  const errs = [
    ...validateNonnegativeField(num(spec.replicas), 'spec.replicas'),
    ...requiredSelectorErrors(spec.selector, 'spec.selector', 'deployment'),
    ...replicaSetTemplateErrors(spec, labelSelectorOf(spec.selector), 'spec'),
    ...strategyErrors(rec(spec.strategy), 'spec.strategy'),
    ...validateNonnegativeField(num(spec.minReadySeconds), 'spec.minReadySeconds'),
  ];
  if (typeof spec.revisionHistoryLimit === 'number') errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(...validateNonnegativeField(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (spec.progressDeadlineSeconds <= num(spec.minReadySeconds)) {
      errs.push(invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

/** Errors of a new Deployment (ValidateDeployment without the generic metadata checks). */
export function validateDeployment(obj: Obj): FieldError[] {
  return deploymentSpecErrors(rec(obj.spec));
}

/** Errors of a main-resource Deployment update: the spec's rules and an unchanged selector. */
export function validateDeploymentUpdate(obj: Obj, old: Obj): FieldError[] {
  return [...deploymentSpecErrors(rec(obj.spec)), ...immutableSelectorErrors(rec(obj.spec), rec(old.spec))];
}

const COUNTERS = ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'];

/** Upstream's ValidateDeploymentStatusUpdate. */
export function validateDeploymentStatusUpdate(obj: Obj, old: Obj): FieldError[] {
  const status = rec(obj.status);
  const errs = [
    ...nonnegativeCounters(status, COUNTERS, 'status'),
    ...boundedCounters(status, ['updatedReplicas', 'readyReplicas', 'availableReplicas'], 'replicas', 'cannot be greater than status.replicas'),
    ...boundedCounters(status, ['availableReplicas'], 'readyReplicas', 'cannot be greater than readyReplicas'),
    ...collisionCountDecremented(status, rec(old.status)),
  ];
  return errs;
}
