/** ControllerRevision: upstream's ValidateControllerRevision (data required, revision ≥ 0; data immutable). */
import type { Obj } from '../../machinery/object.js';
import { semanticEqual } from '../core/semantic.js';
import { type FieldError, invalid, required } from '../../machinery/status.js';
import { isSet, num } from '../../machinery/fields.js';
import { FIELD_IMMUTABLE_ERROR_MSG, validateNonnegativeField } from '../core/value-validation.js';
import { apps } from '../groups.js';

/** Errors of a ControllerRevision. */
export function validateControllerRevision(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (!isSet(obj.data)) errs.push(required('data', 'data is mandatory'));
  errs.push(...validateNonnegativeField(num(obj.revision), 'revision'));
  return errs;
}

/** Errors of a ControllerRevision update: its own rules, and the data may not change. */
export function validateControllerRevisionUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs = validateControllerRevision(obj);
  if (!semanticEqual(obj.data, old.data)) errs.push(invalid('data', obj.data ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  return errs;
}

export const controllerRevisions = apps({
  kind: 'ControllerRevision',
  plural: 'controllerrevisions',
  namespaced: true,
  strategy: { validate: validateControllerRevision, validateUpdate: validateControllerRevisionUpdate },
});
