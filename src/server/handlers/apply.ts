/**
 * Server-side apply: PATCH with `application/apply-patch+yaml` (YAML or JSON). The field
 * manager merges the configuration into the live object inside the update loop; an object that
 * does not exist is created from it (201), as upstream's patch with forceAllowCreate.
 */
import { parseBoolError, parseGoBool } from '../../machinery/go-bool.js';
import { isPlainObject, type Obj } from '../../machinery/object.js';
import { badRequest, conflict, type FieldError, forbiddenField, required, StatusError } from '../../machinery/status.js';
import { readBody } from '../http.js';
import { decodeApplyConfiguration } from '../../codec/decode-body.js';
import { fieldManagerErrors, invalidOptions } from './field-management.js';
import { fieldManagerFor } from './field-tracking.js';
import { fieldValidationOf, readFieldsAs } from './field-validation.js';
import { objectShapeError } from '../../machinery/object-shape.js';
import { admitFor, mutateFor, dryRunOf, type ResourceRequest, writeStored } from './resource-request.js';

export const APPLY_PATCH = 'application/apply-patch+yaml';

/**
 * PatchOptions as upstream decodes and validates them: `force` parses as Go's ParseBool (400
 * otherwise) and is for apply only; apply needs a fieldManager; 422 on PatchOptions.
 */
export function patchOptionsOf(r: ResourceRequest, apply: boolean): { force: boolean } {
  const raw = r.query.get('force');
  const force = raw === null ? undefined : parseGoBool(raw);
  if (raw !== null && force === undefined) throw badRequest(parseBoolError(raw));
  const errs: FieldError[] = [];
  if (!apply && force !== undefined) errs.push(forbiddenField('force', 'may not be specified for non-apply patch'));
  if (apply && (r.query.get('fieldManager') ?? '') === '') errs.push(required('fieldManager', 'is required for apply patch'));
  errs.push(...fieldManagerErrors(r));
  if (errs.length > 0) throw invalidOptions(r, 'PatchOptions', errs);
  return { force: force ?? false };
}

/** checkName: the applied object must name the URL's object (and may not name another namespace). */
function checkName(r: ResourceRequest, obj: Obj): Obj {
  const meta = isPlainObject(obj.metadata) ? obj.metadata : {};
  const name = typeof meta.name === 'string' ? meta.name : '';
  if (name !== r.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${r.name})`);
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  if (r.namespace !== '' && ns !== '' && ns !== r.namespace) {
    throw badRequest(`the namespace of the object (${ns}) does not match the namespace on the request (${r.namespace})`);
  }
  return obj;
}

/**
 * The applied object read as its type, as every other write is: a configuration that merges into
 * something the Go types cannot hold (a null label value) is refused, never stored.
 */
function asStoredType(r: ResourceRequest, obj: Obj): Obj {
  const shape = objectShapeError(obj);
  const { kind, version } = r.store.info;
  if (shape !== undefined) throw badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${shape}`);
  readFieldsAs(r, obj, 'Ignore', undefined);
  return obj;
}

function isNotFound(e: unknown): boolean {
  return e instanceof StatusError && e.code === 404;
}

function isAlreadyExists(e: unknown): boolean {
  return e instanceof StatusError && e.reason === 'AlreadyExists';
}

/** Applies the body for its fieldManager; creates the object when it does not exist. */
export async function handleApply(r: ResourceRequest): Promise<void> {
  const fm = fieldManagerFor(r);
  if (fm === undefined) throw new Error('apply without a field manager');
  const raw = (await readBody(r.req)).toString('utf8');
  const { force } = patchOptionsOf(r, true);
  const dryRun = dryRunOf(r.query);
  fieldValidationOf(r, 'PatchOptions');
  const config = await decodeApplyConfiguration(raw, r.store.info);
  const manager = r.query.get('fieldManager') as string;
  const apply = (live: Obj | undefined) => checkName(r, asStoredType(r, fm.apply(live, structuredClone(config), manager, force)));
  for (;;) {
    try {
      const { obj } = await r.store.guaranteedUpdate(r.ctx, r.namespace, r.name, (current) => apply(current), {
        dryRun,
        subresource: r.subresource,
        mutate: mutateFor(r, 'UPDATE'),
        admit: admitFor(r, 'UPDATE'),
      });
      writeStored(r, 200, obj, dryRun);
      return;
    } catch (e) {
      // Only the main resource is created by apply; a subresource of a missing object is 404.
      if (!isNotFound(e) || r.subresource !== '') throw e;
    }
    try {
      const obj = apply(undefined);
      const uid = isPlainObject(obj.metadata) ? obj.metadata.uid : undefined;
      if (typeof uid === 'string' && uid !== '') {
        throw conflict(r.store.info.groupResource, r.name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
      }
      const created = await r.store.create(r.ctx, r.namespace, obj, { dryRun, mutate: mutateFor(r, 'CREATE'), admit: admitFor(r, 'CREATE') });
      writeStored(r, 201, created, dryRun);
      return;
    } catch (e) {
      // Another writer created it first: apply to theirs.
      if (!isAlreadyExists(e)) throw e;
    }
  }
}
