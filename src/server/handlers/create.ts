/** POST on a collection, or on a subresource that creates: the scope's Creater answers. */
import { readFieldsAs } from './field-validation.js';
import { trackingFor } from './field-management.js';
import { writeOptionsOf } from './options.js';
import { expectObjectOfKind, mutatingAdmissionFor, readObjectBody, type ResourceRequest, validatingAdmissionFor, writeStored } from './resource-request.js';

/** Creates from the body in the request's namespace; 201 with what the Creater answers. */
export async function handleCreate(r: ResourceRequest): Promise<void> {
  const opts = writeOptionsOf(r.query, r.ctx.brand, 'CreateOptions');
  const creater = r.scope.capabilities.creater;
  if (creater === undefined) throw new Error(`${r.scope.info.plural} routed a create without a Creater`);
  const body = await readObjectBody(r);
  const { pace } = r.ctx;
  if (pace?.due()) await pace.yield();
  const checked = expectObjectOfKind(r, body.value);
  const obj = checked instanceof Promise ? await checked : checked;
  if (pace?.due()) await pace.yield();
  const read = readFieldsAs(r, obj, opts.fieldValidation, body.json);
  if (read instanceof Promise) await read;
  if (pace?.due()) await pace.yield();
  const created = await creater.create(r.ctx, r.namespace, obj, {
    dryRun: opts.dryRun,
    name: r.subresource === '' ? undefined : r.name,
    track: await trackingFor(r, opts),
    mutatingAdmission: mutatingAdmissionFor(r, 'CREATE'),
    validatingAdmission: validatingAdmissionFor(r, 'CREATE'),
  });
  writeStored(r, 201, created, opts.dryRun);
}
