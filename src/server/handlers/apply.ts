/**
 * Server-side apply: PATCH with `application/apply-patch+yaml` (YAML or JSON). The field
 * manager merges the configuration into the live object inside the update loop; the registry
 * creates an object that does not exist from it (201), as upstream's patch with forceAllowCreate.
 */
import { isPlainObject, type Obj } from '../../machinery/object.js';
import { badRequest } from '../../machinery/status.js';
import type { Patcher } from '../../registry/capabilities.js';
import { fieldManagerOf } from './field-management.js';
import { readFieldsAs } from './field-validation.js';
import { decodeApplyConfiguration } from '../../codec/decode-body.js';
import { patchOptionsOf } from './options.js';
import { checkObjectShape, mutatingAdmissionFor, readWriteBody, type ResourceRequest, validatingAdmissionFor, writeStored } from './resource-request.js';

export const APPLY_PATCH = 'application/apply-patch+yaml';

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
async function asStoredType(r: ResourceRequest, obj: Obj): Promise<Obj> {
  const { pace } = r.ctx;
  if (pace?.due()) await pace.yield();
  await checkObjectShape(r, obj);
  if (pace?.due()) await pace.yield();
  await readFieldsAs(r, obj, 'Ignore', undefined);
  return obj;
}

/** Applies the body for its fieldManager; the registry creates the object when it does not exist. */
export async function handleApply(r: ResourceRequest, patcher: Patcher): Promise<void> {
  const fm = await fieldManagerOf(r);
  if (fm === undefined) throw new Error('apply without a field manager');
  const raw = (await readWriteBody(r)).toString('utf8');
  const opts = patchOptionsOf(r.query, r.ctx.brand, true);
  const { pace } = r.ctx;
  const config = await decodeApplyConfiguration(raw, { kind: r.scope.kind, version: r.scope.info.version }, pace);
  // The field manager only reads the configuration and answers an object of its own (a copy),
  // so every attempt applies the same one without copying it.
  const apply = async (live: Obj | undefined) => {
    if (pace?.due()) await pace.yield();
    return checkName(r, await asStoredType(r, await fm.applyPaced(live, config, opts.fieldManager, opts.force, pace)));
  };
  const { obj, created } = await patcher.update(r.ctx, r.namespace, r.name, apply, {
    dryRun: opts.dryRun,
    mutatingAdmission: mutatingAdmissionFor(r, 'UPDATE'),
    validatingAdmission: validatingAdmissionFor(r, 'UPDATE'),
    createIfMissing: { mutatingAdmission: mutatingAdmissionFor(r, 'CREATE'), validatingAdmission: validatingAdmissionFor(r, 'CREATE') },
  });
  writeStored(r, created ? 201 : 200, obj, opts.dryRun);
}
