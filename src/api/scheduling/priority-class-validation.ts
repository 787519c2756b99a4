/**
 * PriorityClass validation as upstream's scheduling validation (1.25): names with the `system-`
 * prefix are reserved for the two built-in classes (with their exact value and globalDefault),
 * user classes may not exceed 1e9, preemptionPolicy is PreemptLowerPriority or Never; value and
 * preemptionPolicy are immutable.
 */
import type { Obj } from '../../machinery/object.js';
import { metaOf } from '../../machinery/object.js';
import { type FieldError, forbiddenField, invalid, notSupported, required } from '../../machinery/status.js';
import { isSet, num, str } from '../../machinery/fields.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../core/value-validation.js';

export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
export const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;

/** The built-in classes the API server creates (upstream's SystemPriorityClasses). */
export const SYSTEM_PRIORITY_CLASSES: readonly { name: string; value: number; globalDefault: boolean; description: string }[] = [
  {
    name: 'system-node-critical',
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    globalDefault: false,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: SYSTEM_CRITICAL_PRIORITY,
    globalDefault: false,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/** Upstream's IsKnownSystemPriorityClass: undefined when known and matching, else why not. */
function systemClassError(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
  if (known === undefined) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${known.name} PriorityClass must be ${known.value}`;
  if (known.globalDefault !== globalDefault) return `globalDefault of ${known.name} PriorityClass must be ${known.globalDefault}`;
  return undefined;
}

/** Upstream's ValidatePreemptionPolicy. */
export function preemptionPolicyErrors(policy: string, fldPath: string): FieldError[] {
  if (policy === 'PreemptLowerPriority' || policy === 'Never') return [];
  if (policy === '') return [required(fldPath, '')];
  return [notSupported(fldPath, policy, ['PreemptLowerPriority', 'Never'])];
}

/** Upstream's ValidatePriorityClass (without the generic metadata checks). */
export function validatePriorityClass(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const name = metaOf(obj).name ?? '';
  const value = num(obj.value);
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const why = systemClassError(name, value, obj.globalDefault === true);
    if (why !== undefined) {
      errs.push(
        forbiddenField('metadata.name', `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${why}`),
      );
    }
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(forbiddenField('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (isSet(obj.preemptionPolicy)) errs.push(...preemptionPolicyErrors(str(obj.preemptionPolicy), 'preemptionPolicy'));
  return errs;
}

/** Upstream's strategy: ValidatePriorityClass, then value and preemptionPolicy unchanged. */
export function validatePriorityClassUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs = validatePriorityClass(obj);
  if (num(obj.value) !== num(old.value)) errs.push(forbiddenField('value', 'may not be changed in an update.'));
  if ((obj.preemptionPolicy ?? null) !== (old.preemptionPolicy ?? null)) {
    errs.push(invalid('preemptionPolicy', obj.preemptionPolicy ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  }
  return errs;
}
