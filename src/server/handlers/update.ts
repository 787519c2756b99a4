/** PUT of one object, its status, or a namespace's finalize subresource. */
import { fieldValidationOf, readFieldsAs } from './field-validation.js';
import { checkWriteOptions, fieldTracking } from './field-management.js';
import { admitFor, mutateFor, dryRunOf, expectObjectOfKind, readObjectBody, type ResourceRequest, writeStored } from './resource-request.js';

/** Replaces the object with the body (compare-and-swap when the body carries a resourceVersion). */
export async function handleUpdate(r: ResourceRequest): Promise<void> {
  const dryRun = dryRunOf(r.query);
  const fieldValidation = fieldValidationOf(r, 'UpdateOptions');
  checkWriteOptions(r, 'UpdateOptions');
  const body = await readObjectBody(r);
  const obj = expectObjectOfKind(r, body.value);
  readFieldsAs(r, obj, fieldValidation, body.json);
  const { trackWrite } = await fieldTracking();
  const { obj: updated, created } = await r.store.guaranteedUpdate(r.ctx, r.namespace, r.name, () => structuredClone(obj), {
    dryRun,
    track: (next, live) => trackWrite(r, next, live),
    subresource: r.subresource,
    mutate: mutateFor(r, 'UPDATE'),
    admit: admitFor(r, 'UPDATE'),
  });
  writeStored(r, created ? 201 : 200, updated, dryRun);
}
