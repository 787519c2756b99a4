/** PUT of one object or of a subresource that updates (the scope's Updater decides what the write may change). */
import { readFieldsAs } from './field-validation.js';
import { trackingFor } from './field-management.js';
import { writeOptionsOf } from './options.js';
import { cloneJsonSteps } from '../../apply/clone.js';
import { runPaced } from '../../machinery/pace.js';
import { expectObjectOfKind, mutatingAdmissionFor, readObjectBody, type ResourceRequest, validatingAdmissionFor, writeStored } from './resource-request.js';

/** Replaces the object with the body (compare-and-swap when the body carries a resourceVersion). */
export async function handleUpdate(r: ResourceRequest): Promise<void> {
  const opts = writeOptionsOf(r.query, r.ctx.brand, 'UpdateOptions');
  const updater = r.scope.capabilities.updater;
  if (updater === undefined) throw new Error(`${r.scope.info.plural} routed an update without an Updater`);
  const body = await readObjectBody(r);
  const { pace } = r.ctx;
  if (pace?.due()) await pace.yield();
  const checked = expectObjectOfKind(r, body.value);
  const obj = checked instanceof Promise ? await checked : checked;
  if (pace?.due()) await pace.yield();
  const read = readFieldsAs(r, obj, opts.fieldValidation, body.json);
  if (read instanceof Promise) await read;
  if (pace?.due()) await pace.yield();
  // Each attempt writes its own copy of the body, in steps that pause when the pace is due.
  const proposed = () => runPaced((due) => cloneJsonSteps(obj, due), pace);
  const { obj: updated, created } = await updater.update(r.ctx, r.namespace, r.name, proposed, {
    dryRun: opts.dryRun,
    track: await trackingFor(r, opts),
    mutatingAdmission: mutatingAdmissionFor(r, 'UPDATE'),
    validatingAdmission: validatingAdmissionFor(r, 'UPDATE'),
  });
  writeStored(r, created ? 201 : 200, updated, opts.dryRun);
}
