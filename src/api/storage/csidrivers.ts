/**
 * CSIDriver: storage/v1 defaults (attachRequired true, podInfoOnMount false, storageCapacity
 * false, fsGroupPolicy ReadWriteOnceWithFSType, volumeLifecycleModes [Persistent],
 * requiresRepublish false) and upstream's ValidateCSIDriver / ValidateCSIDriverUpdate (1.25).
 * The name is checked as a CSI driver name at the field path `name`, as upstream does.
 */
import { defaultIfUnset } from '../../machinery/defaulting.js';
import type { Obj } from '../../machinery/object.js';
import { metaOf } from '../../machinery/object.js';
import { semanticEqual } from '../core/semantic.js';
import { duplicate, type FieldError, invalid, notSupported, required } from '../../machinery/status.js';
import { child, isSet, list, numOrNil, type Rec, rec, records, str } from '../../machinery/fields.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../core/value-validation.js';
import { validateCSIDriverName } from '../core/volume-validation.js';
import { storage } from '../groups.js';
import type { Strategy } from '../types.js';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
const MIN_TOKEN_EXPIRATION_SECONDS = 600;
const MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;

function tokenRequestsErrors(requests: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const audiences = new Set<string>();
  records(requests).forEach((r, i) => {
    const path = `${fldPath}[${i}]`;
    const audience = str(r.audience);
    if (audiences.has(audience)) {
      errs.push(duplicate(`${path}.audience`, audience));
      return;
    }
    audiences.add(audience);
    const seconds = numOrNil(r.expirationSeconds);
    if (seconds === undefined) return;
    if (seconds < MIN_TOKEN_EXPIRATION_SECONDS) errs.push(invalid(`${path}.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'));
    if (seconds > MAX_TOKEN_EXPIRATION_SECONDS) errs.push(invalid(`${path}.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

/** Upstream's validateCSIDriverSpec. */
function specErrors(spec: Rec): FieldError[] {
  const errs: FieldError[] = [];
  // Upstream names the attachRequired field "attachedRequired" in its paths.
  if (!isSet(spec.attachRequired)) errs.push(required('spec.attachedRequired', ''));
  if (!isSet(spec.podInfoOnMount)) errs.push(required('spec.podInfoOnMount', ''));
  if (!isSet(spec.storageCapacity)) errs.push(required('spec.storageCapacity', ''));
  if (isSet(spec.fsGroupPolicy) && !FS_GROUP_POLICIES.includes(str(spec.fsGroupPolicy))) {
    errs.push(notSupported('spec.fsGroupPolicy', str(spec.fsGroupPolicy), FS_GROUP_POLICIES));
  }
  errs.push(...tokenRequestsErrors(spec.tokenRequests, 'spec.tokenRequests'));
  for (const mode of list(spec.volumeLifecycleModes)) {
    if (!LIFECYCLE_MODES.includes(str(mode))) errs.push(notSupported('spec.volumeLifecycleModes', str(mode), LIFECYCLE_MODES));
  }
  return errs;
}

/** Upstream's ValidateCSIDriver. */
export function validateCSIDriver(obj: Obj): FieldError[] {
  return [...validateCSIDriverName(metaOf(obj).name ?? '', 'name'), ...specErrors(rec(obj.spec))];
}

/** The spec fields a CSIDriver update may not change, with upstream's paths. */
const IMMUTABLE: readonly [string, string][] = [
  ['attachRequired', 'spec.attachedRequired'],
  ['fsGroupPolicy', 'spec.fsGroupPolicy'],
  ['podInfoOnMount', 'spec.podInfoOnMount'],
  ['volumeLifecycleModes', 'spec.volumeLifecycleModes'],
];

/** Upstream's ValidateCSIDriverUpdate: the driver's rules, its immutable fields, token requests again. */
export function validateCSIDriverUpdate(obj: Obj, old: Obj): FieldError[] {
  const spec = rec(obj.spec);
  const oldSpec = rec(old.spec);
  const errs = validateCSIDriver(obj);
  for (const [key, path] of IMMUTABLE) {
    if (!semanticEqual(spec[key], oldSpec[key])) errs.push(invalid(path, spec[key] ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  }
  errs.push(...tokenRequestsErrors(spec.tokenRequests, 'spec.tokenRequests'));
  return errs;
}

/** storage/v1's SetDefaults_CSIDriver (CSIInlineVolume is GA in 1.25, so the lifecycle default applies). */
function defaultCSIDriver(obj: Obj): void {
  const spec = child(obj, 'spec');
  defaultIfUnset(spec, 'attachRequired', true);
  defaultIfUnset(spec, 'podInfoOnMount', false);
  defaultIfUnset(spec, 'storageCapacity', false);
  defaultIfUnset(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
  if (list(spec.volumeLifecycleModes).length === 0) spec.volumeLifecycleModes = ['Persistent'];
  defaultIfUnset(spec, 'requiresRepublish', false);
}

const csiDriverStrategy: Strategy = {
  defaults: defaultCSIDriver,
  // seLinuxMount belongs to the SELinuxMountReadWriteOncePod gate, off in 1.25.
  prepareForCreate(obj) {
    delete child(obj, 'spec').seLinuxMount;
  },
  prepareForUpdate(obj, old) {
    if (!isSet(rec(old.spec).seLinuxMount)) delete child(obj, 'spec').seLinuxMount;
  },
  validate: validateCSIDriver,
  validateUpdate: validateCSIDriverUpdate,
};

export const csiDrivers = storage({
  kind: 'CSIDriver',
  plural: 'csidrivers',
  namespaced: false,
  // The name is checked as a driver name by the strategy (upstream skips the generic name rule).
  nameRule: 'path-segment',
  strategy: csiDriverStrategy,
});
