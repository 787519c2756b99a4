/** Lease: upstream's ValidateLeaseSpec (a positive duration, non-negative transitions), on create and update. */
import type { Obj } from '../../machinery/object.js';
import { type FieldError, invalid } from '../../machinery/status.js';
import { numOrNil, rec } from '../../machinery/fields.js';
import { validateNonnegativeField } from '../core/value-validation.js';
import { coordination } from '../groups.js';

/** Errors of a Lease's spec. */
export function validateLease(obj: Obj): FieldError[] {
  const spec = rec(obj.spec);
  const errs: FieldError[] = [];
  const duration = numOrNil(spec.leaseDurationSeconds);
  if (duration !== undefined && duration <= 0) errs.push(invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  const transitions = numOrNil(spec.leaseTransitions);
  if (transitions !== undefined) errs.push(...validateNonnegativeField(transitions, 'spec.leaseTransitions'));
  return errs;
}

export const leases = coordination({
  kind: 'Lease',
  plural: 'leases',
  namespaced: true,
  strategy: { validate: validateLease, validateUpdate: validateLease },
});
