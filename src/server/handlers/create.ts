/** POST on a collection: create one object (201), or 200 on dry-run as upstream. */
import { writeObject } from '../http.js';
import { fieldValidationOf, readFieldsAs } from './field-validation.js';
import { checkWriteOptions, fieldTracking } from './field-management.js';
import { review } from '../../registry/reviews.js';
import { createBinding, isBinding } from './binding.js';
import { admitFor, mutateFor, dryRunOf, expectObjectOfKind, readObjectBody, type ResourceRequest, writeStored } from './resource-request.js';

/** Creates the body's object in the request's namespace. */
export async function handleCreate(r: ResourceRequest): Promise<void> {
  const dryRun = dryRunOf(r.query);
  const fieldValidation = fieldValidationOf(r, 'CreateOptions');
  checkWriteOptions(r, 'CreateOptions');
  const body = await readObjectBody(r);
  const obj = expectObjectOfKind(r, body.value);
  readFieldsAs(r, obj, fieldValidation, body.json);
  if (isBinding(r.store.info)) return createBinding(r, obj, dryRun);
  if (r.store.info.def.virtual) {
    writeObject(r.res, 201, review(r.store.info, r.reviews, r.ctx, r.namespace, obj), r.output);
    return;
  }
  const { trackWrite } = await fieldTracking();
  const created = await r.store.create(r.ctx, r.namespace, obj, {
    dryRun,
    track: (next, live) => trackWrite(r, next, live),
    mutate: mutateFor(r, 'CREATE'),
    admit: admitFor(r, 'CREATE'),
  });
  writeStored(r, 201, created, dryRun);
}
