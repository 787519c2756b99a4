/** DELETE of one object, and of a collection (the scope's Deleter and CollectionDeleter). */
import { writeObject } from '../http.js';
import { decodeOptionsBody } from '../../codec/decode-body.js';
import { mediaTypeEssence } from '../../codec/accept.js';
import { readWriteBody, validatingAdmissionFor, type ResourceRequest } from './resource-request.js';
import { deleteOptionsOf, listOptionsOf } from './options.js';
import { selectionFor } from '../../registry/selection.js';
import { planList } from '../../registry/read-options.js';
import { streamList } from '../stream-list.js';

/** The DeleteOptions body, if any; a delete is a write, paced as one (copying a large object to mark it). */
async function optionalBody(r: ResourceRequest): Promise<unknown> {
  const mediaType = mediaTypeEssence(r.req.headers['content-type'] as string | undefined);
  return decodeOptionsBody(await readWriteBody(r), mediaType, r.ctx.brand.protobufMediaTypes);
}

/** 200 with the object while it is finalizing, 200 with a Success Status once removed. */
export async function handleDelete(r: ResourceRequest): Promise<void> {
  const deleter = r.scope.capabilities.deleter;
  if (deleter === undefined) throw new Error(`${r.scope.info.plural} routed a delete without a Deleter`);
  const opts = deleteOptionsOf(r.query, await optionalBody(r), r.ctx.brand);
  const result = await deleter.delete(r.ctx, r.namespace, r.name, { ...opts, validatingAdmission: validatingAdmissionFor(r, 'DELETE') });
  writeObject(r.res, 200, result.removed ? result.status : result.obj, r.output);
}

/** Deletes every object the list options select; answers the list of what was deleted. */
export async function handleDeleteCollection(r: ResourceRequest): Promise<void> {
  const deleter = r.scope.capabilities.collectionDeleter;
  if (deleter === undefined) throw new Error(`${r.scope.info.plural} routed a deletecollection without a CollectionDeleter`);
  const opts = deleteOptionsOf(r.query, await optionalBody(r), r.ctx.brand);
  const listOpts = listOptionsOf(r.query, true);
  const selection = selectionFor(r.scope.info, listOpts);
  const list = await deleter.deleteCollection(r.ctx, r.namespace, listOpts, planList(listOpts, r.ctx.brand), selection, (name) => ({
    ...opts,
    validatingAdmission: validatingAdmissionFor(r, 'DELETE', name),
  }));
  // The deleted objects as a list of them is answered, written as any list is (streamed).
  await streamList(r, list);
}
