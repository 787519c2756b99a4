/**
 * StatefulSet validation as upstream's apps validation (1.25): ValidateStatefulSetSpec (whose
 * template check covers only labels and annotations), the update rule that only replicas,
 * template, updateStrategy, persistentVolumeClaimRetentionPolicy and minReadySeconds change,
 * and ValidateStatefulSetStatusUpdate.
 */
import { goLabelSelector } from '../../machinery/go-format.js';
import type { Obj } from '../../machinery/object.js';
import { semanticEqual } from '../core/semantic.js';
import { type FieldError, forbiddenField, invalid, notSupported, PrintedValue, required } from '../../machinery/status.js';
import { goQuote } from '../../machinery/validation.js';
import { isSet, num, type Rec, rec, recOrNil, str } from '../../machinery/fields.js';
import { validateNonnegativeField } from '../core/value-validation.js';
import { validateTemplateMetadata } from './pod-template.js';
import {
  alwaysRestartErrors,
  boundedCounters,
  collisionCountDecremented,
  compileSelector,
  labelSelectorOf,
  nonnegativeCounters,
  requiredSelectorErrors,
  templateSelectorErrors,
} from './workload-validation.js';

/** A RollingUpdateStatefulSetStrategy as %#v prints it (maxUnavailable is dropped while its gate is off). */
function rollingUpdateValue(ru: Rec): unknown {
  if (isSet(ru.maxUnavailable)) return ru;
  return new PrintedValue(`apps.RollingUpdateStatefulSetStrategy{Partition:${num(ru.partition)}, MaxUnavailable:(*intstr.IntOrString)(nil)}`);
}

/** A StatefulSetUpdateStrategy as %#v prints it (the JSON value when Go would print an address). */
function updateStrategyValue(strategy: Rec): unknown {
  if (isSet(strategy.rollingUpdate)) return strategy;
  return new PrintedValue(`apps.StatefulSetUpdateStrategy{Type:${goQuote(str(strategy.type))}, RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}`);
}

function podManagementPolicyErrors(policy: string): FieldError[] {
  if (policy === '') return [required('spec.podManagementPolicy', '')];
  if (policy === 'OrderedReady' || policy === 'Parallel') return [];
  return [invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'")];
}

function updateStrategyErrors(strategy: Rec): FieldError[] {
  const ru = recOrNil(strategy.rollingUpdate);
  switch (str(strategy.type)) {
    case '':
      return [required('spec.updateStrategy', '')];
    case 'OnDelete':
      return ru === undefined ? [] : [invalid('spec.updateStrategy.rollingUpdate', rollingUpdateValue(ru), "only allowed for updateStrategy 'RollingUpdate'")];
    case 'RollingUpdate':
      return ru === undefined ? [] : validateNonnegativeField(num(ru.partition), 'spec.updateStrategy.rollingUpdate.partition');
    default:
      return [invalid('spec.updateStrategy', updateStrategyValue(strategy), "must be 'RollingUpdate' or 'OnDelete'")];
  }
}

function retentionPolicyErrors(policy: Rec | undefined): FieldError[] {
  if (policy === undefined) return [];
  return ['whenDeleted', 'whenScaled'].flatMap((k) => {
    const v = str(policy[k]);
    return v === 'Retain' || v === 'Delete' ? [] : [notSupported(`spec.persistentVolumeClaimRetentionPolicy.${k}`, v, ['Retain', 'Delete'])];
  });
}

/** Upstream's ValidateStatefulSetSpec. */
export function statefulSetSpecErrors(spec: Rec): FieldError[] {
  const errs = [
    ...podManagementPolicyErrors(str(spec.podManagementPolicy)),
    ...updateStrategyErrors(rec(spec.updateStrategy)),
    ...retentionPolicyErrors(recOrNil(spec.persistentVolumeClaimRetentionPolicy)),
    ...validateNonnegativeField(num(spec.replicas), 'spec.replicas'),
    ...validateNonnegativeField(num(spec.minReadySeconds), 'spec.minReadySeconds'),
    ...requiredSelectorErrors(spec.selector, 'spec.selector', 'statefulset'),
  ];
  const template = rec(spec.template);
  const matcher = compileSelector(labelSelectorOf(spec.selector));
  if (matcher === undefined) errs.push(invalid('spec.selector', goLabelSelector(spec.selector), ''));
  else errs.push(...templateSelectorErrors(matcher, template, 'spec.template'), ...validateTemplateMetadata(template, 'spec.template'));
  errs.push(...alwaysRestartErrors(template, 'spec.template', 'StatefulSet'));
  return errs;
}

/** The spec fields an update may change. */
const MUTABLE_SPEC_FIELDS = ['replicas', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

function withoutMutable(spec: Rec): Rec {
  const out = { ...spec };
  for (const k of MUTABLE_SPEC_FIELDS) delete out[k];
  return out;
}

/** Errors of a new StatefulSet. */
export function validateStatefulSet(obj: Obj): FieldError[] {
  return statefulSetSpecErrors(rec(obj.spec));
}

/** Upstream's strategy: ValidateStatefulSet of the new object plus ValidateStatefulSetUpdate. */
export function validateStatefulSetUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs = validateStatefulSet(obj);
  if (!semanticEqual(withoutMutable(rec(obj.spec)), withoutMutable(rec(old.spec)))) {
    errs.push(
      forbiddenField(
        'spec',
        "updates to statefulset spec for fields other than 'replicas', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      ),
    );
  }
  return errs;
}

const COUNTERS = ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'];

/** Upstream's ValidateStatefulSetStatusUpdate. */
export function validateStatefulSetStatusUpdate(obj: Obj, old: Obj): FieldError[] {
  const status = rec(obj.status);
  return [
    ...nonnegativeCounters(status, COUNTERS, 'status'),
    ...boundedCounters(
      status,
      ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'],
      'replicas',
      'cannot be greater than status.replicas',
    ),
    ...boundedCounters(status, ['availableReplicas'], 'readyReplicas', 'cannot be greater than status.readyReplicas'),
    ...collisionCountDecremented(status, rec(old.status)),
  ];
}
