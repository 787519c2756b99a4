/**
 * Field ownership on every write (upstream's handlers wiring of the field manager): the
 * manager's name (fieldManager, else the User-Agent's product) and the options checks. The
 * field manager itself (field-tracking.ts, with the server-side-apply machinery) is loaded on
 * the first write, not at start-up.
 */
import { validateFieldManager } from '../../machinery/object-meta-validation.js';
import { type FieldError, invalidObject, type StatusError } from '../../machinery/status.js';
import type { ResourceRequest } from './resource-request.js';

let tracking: Promise<typeof import('./field-tracking.js')> | undefined;

/** The field-tracking module, loaded once on first use. */
export function fieldTracking(): Promise<typeof import('./field-tracking.js')> {
  tracking ??= import('./field-tracking.js');
  return tracking;
}

/** 422 on the options kind (`PatchOptions.meta.orch.io "" is invalid: ...`), without a name. */
export function invalidOptions(r: ResourceRequest, kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', errs: FieldError[]): StatusError {
  const err = invalidObject(kind, r.ctx.brand.metaGroup, '', errs);
  if (err.details) delete err.details.name;
  return err;
}

/** ValidateFieldManager of the fieldManager option of a create, update or patch. */
export function fieldManagerErrors(r: ResourceRequest): FieldError[] {
  return validateFieldManager(r.query.get('fieldManager') ?? '', 'fieldManager');
}

/** Checks the fieldManager option of a create or update (422 on the options kind). */
export function checkWriteOptions(r: ResourceRequest, kind: 'CreateOptions' | 'UpdateOptions'): void {
  const errs = fieldManagerErrors(r);
  if (errs.length > 0) throw invalidOptions(r, kind, errs);
}
