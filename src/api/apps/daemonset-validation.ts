/**
 * DaemonSet validation as upstream's apps validation (1.25, MaxSurge GA): ValidateDaemonSetSpec,
 * ValidateDaemonSetSpecUpdate (the template generation moves with the template), and
 * ValidateDaemonSetStatusUpdate. Upstream's update runs ValidateDaemonSet and then
 * ValidateDaemonSetUpdate, which validates the spec again: its spec errors appear twice.
 */
import { goIntOrString } from '../../machinery/go-format.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../machinery/int-or-percent.js';
import type { Obj } from '../../machinery/object.js';
import { semanticEqual } from '../core/semantic.js';
import { type FieldError, invalid, notSupported, PrintedValue, required } from '../../machinery/status.js';
import { goQuote } from '../../machinery/validation.js';
import { isSet, num, type Rec, rec, recOrNil, str } from '../../machinery/fields.js';
import { validateNonnegativeField } from '../core/value-validation.js';
import { validateWorkloadPodTemplate } from './pod-template.js';
import { templateGenerationOf } from './template-generation.js';
import {
  alwaysRestartErrors,
  collisionCountDecremented,
  compileSelector,
  immutableSelectorErrors,
  isEmptySelector,
  labelSelectorOf,
  nonnegativeCounters,
  selectorMismatch,
} from './workload-validation.js';
import { goLabelSelector } from '../../machinery/go-format.js';
import { validateLabelSelector } from '../../machinery/label-selector.js';

/** Upstream's ValidateRollingUpdateDaemonSet: bounded values, exactly one of the two non-zero. */
function rollingUpdateErrors(ru: Rec, fldPath: string): FieldError[] {
  const maxUnavailable = ru.maxUnavailable ?? 0;
  const maxSurge = ru.maxSurge ?? 0;
  const errs = [
    ...validatePositiveIntOrPercent(maxUnavailable, `${fldPath}.maxUnavailable`),
    ...validatePositiveIntOrPercent(maxSurge, `${fldPath}.maxSurge`),
    ...isNotMoreThan100Percent(maxUnavailable, `${fldPath}.maxUnavailable`),
    ...isNotMoreThan100Percent(maxSurge, `${fldPath}.maxSurge`),
  ];
  const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errs.push(invalid(`${fldPath}.maxSurge`, goIntOrString(maxSurge), 'may not be set when maxUnavailable is non-zero'));
  if (!hasUnavailable && !hasSurge) errs.push(required(`${fldPath}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  return errs;
}

/** Upstream's ValidateDaemonSetUpdateStrategy. */
function updateStrategyErrors(strategy: Rec): FieldError[] {
  switch (str(strategy.type)) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const ru = recOrNil(strategy.rollingUpdate);
      if (ru === undefined) return [required('spec.updateStrategy.rollingUpdate', '')];
      return rollingUpdateErrors(ru, 'spec.updateStrategy.rollingUpdate');
    }
    default: {
      const value = isSet(strategy.rollingUpdate)
        ? strategy
        : new PrintedValue(`apps.DaemonSetUpdateStrategy{Type:${goQuote(str(strategy.type))}, RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}`);
      return [notSupported('spec.updateStrategy', value, ['RollingUpdate', 'OnDelete'])];
    }
  }
}

/** Upstream's ValidateDaemonSetSpec (templateGeneration is the internal field behind the v1 annotation). */
export function daemonSetSpecErrors(obj: Obj): FieldError[] {
  const spec = rec(obj.spec);
  const template = rec(spec.template);
  const sel = labelSelectorOf(spec.selector);
  const errs = sel === undefined ? [] : validateLabelSelector(sel, 'spec.selector');
  const matcher = compileSelector(sel);
  if (matcher !== undefined) errs.push(...selectorMismatch(matcher, template, 'spec.template'));
  if (sel !== undefined && isEmptySelector(sel)) errs.push(invalid('spec.selector', goLabelSelector(spec.selector), 'empty selector is invalid for daemonset'));
  errs.push(
    ...validateWorkloadPodTemplate(template, 'spec.template'),
    ...alwaysRestartErrors(template, 'spec.template', 'DaemonSet'),
    ...validateNonnegativeField(num(spec.minReadySeconds), 'spec.minReadySeconds'),
    ...validateNonnegativeField(templateGenerationOf(obj), 'spec.templateGeneration'),
    ...updateStrategyErrors(rec(spec.updateStrategy)),
  );
  if (typeof spec.revisionHistoryLimit === 'number') errs.push(...validateNonnegativeField(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

/** Upstream's ValidateDaemonSetSpecUpdate: the template generation moves when, and only when, the template does. */
function templateGenerationErrors(obj: Obj, old: Obj): FieldError[] {
  const generation = templateGenerationOf(obj);
  const oldGeneration = templateGenerationOf(old);
  const path = 'spec.templateGeneration';
  if (generation < oldGeneration) return [invalid(path, generation, 'must not be decremented')];
  const templateUpdated = !semanticEqual(rec(obj.spec).template, rec(old.spec).template);
  if (generation === oldGeneration && templateUpdated) return [invalid(path, generation, 'must be incremented upon template update')];
  if (generation > oldGeneration && !templateUpdated) return [invalid(path, generation, 'must not be incremented without template update')];
  return [];
}

/** Errors of a new DaemonSet. */
export function validateDaemonSet(obj: Obj): FieldError[] {
  return daemonSetSpecErrors(obj);
}

/** Upstream's strategy: ValidateDaemonSet, ValidateDaemonSetUpdate (spec rules again), immutable selector. */
export function validateDaemonSetUpdate(obj: Obj, old: Obj): FieldError[] {
  return [
    ...daemonSetSpecErrors(obj),
    ...templateGenerationErrors(obj, old),
    ...daemonSetSpecErrors(obj),
    ...immutableSelectorErrors(rec(obj.spec), rec(old.spec)),
  ];
}

const COUNTERS = [
  'currentNumberScheduled',
  'numberMisscheduled',
  'desiredNumberScheduled',
  'numberReady',
  'observedGeneration',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
  'collisionCount',
];

/** Upstream's ValidateDaemonSetStatusUpdate. */
export function validateDaemonSetStatusUpdate(obj: Obj, old: Obj): FieldError[] {
  const status = rec(obj.status);
  return [...nonnegativeCounters(status, COUNTERS, 'status'), ...collisionCountDecremented(status, rec(old.status))];
}
