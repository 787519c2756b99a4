/**
 * StorageClass validation as upstream's storage validation (1.25): a qualified provisioner name,
 * bounded parameters, supported reclaim policy and binding mode, valid allowed topologies; the
 * provisioner, parameters, reclaim policy and binding mode never change.
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import type { Obj } from '../../machinery/object.js';
import { type FieldError, forbiddenField, invalid, notSupported, required, tooLong } from '../../machinery/status.js';
import { isQualifiedName } from '../../machinery/validation.js';
import { isSet, recOrNil, str } from '../../machinery/fields.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../core/value-validation.js';
import { allowedTopologiesErrors } from './topology-validation.js';

const MAX_PROVISIONER_PARAMETER_SIZE = 256 * (1 << 10);
const MAX_PROVISIONER_PARAMETER_LEN = 512;
const RECLAIM_POLICIES = ['Delete', 'Retain'];
const VOLUME_BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

function provisionerErrors(provisioner: string): FieldError[] {
  if (provisioner === '') return [required('provisioner', '')];
  const lower = provisioner.toLowerCase();
  return isQualifiedName(lower).map((m) => invalid('provisioner', lower, m));
}

function parametersErrors(params: Record<string, unknown> | undefined): FieldError[] {
  const entries = Object.entries(params ?? {});
  if (entries.length > MAX_PROVISIONER_PARAMETER_LEN)
    return [tooLong('parameters', 'Provisioner Parameters exceeded max allowed', MAX_PROVISIONER_PARAMETER_LEN)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(invalid('parameters', k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(str(v));
  }
  if (size > MAX_PROVISIONER_PARAMETER_SIZE) errs.push(tooLong('parameters', '', MAX_PROVISIONER_PARAMETER_SIZE));
  return errs;
}

/** Upstream's ValidateStorageClass (without the generic metadata checks). */
export function validateStorageClass(obj: Obj): FieldError[] {
  const errs = [...provisionerErrors(str(obj.provisioner)), ...parametersErrors(recOrNil(obj.parameters))];
  const reclaimPolicy = str(obj.reclaimPolicy);
  if (reclaimPolicy !== '' && !RECLAIM_POLICIES.includes(reclaimPolicy)) errs.push(notSupported('reclaimPolicy', reclaimPolicy, RECLAIM_POLICIES));
  if (!isSet(obj.volumeBindingMode)) errs.push(required('volumeBindingMode', ''));
  else if (!VOLUME_BINDING_MODES.includes(str(obj.volumeBindingMode))) {
    errs.push(notSupported('volumeBindingMode', str(obj.volumeBindingMode), VOLUME_BINDING_MODES));
  }
  errs.push(...allowedTopologiesErrors(obj.allowedTopologies, 'allowedTopologies'));
  return errs;
}

/** Upstream's strategy: ValidateStorageClass, then ValidateStorageClassUpdate's unchangeable fields. */
export function validateStorageClassUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs = validateStorageClass(obj);
  if (!deepEqual(obj.parameters ?? null, old.parameters ?? null)) errs.push(forbiddenField('parameters', 'updates to parameters are forbidden.'));
  if (str(obj.provisioner) !== str(old.provisioner)) errs.push(forbiddenField('provisioner', 'updates to provisioner are forbidden.'));
  if (str(obj.reclaimPolicy) !== str(old.reclaimPolicy)) errs.push(forbiddenField('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if ((obj.volumeBindingMode ?? null) !== (old.volumeBindingMode ?? null)) {
    errs.push(invalid('volumeBindingMode', obj.volumeBindingMode ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  }
  return errs;
}
