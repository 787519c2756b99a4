/** DELETE of one object, and of a collection. */
import { writeObject, readBody } from '../http.js';
import { decodeOptionsBody } from '../../codec/decode-body.js';
import { admitFor, dryRunOf, listOptionsOf, type ResourceRequest } from './resource-request.js';
import { deleteOptionsOf } from './delete-options.js';
import { selectionFor } from '../../registry/selection.js';
import { listEntries } from '../../registry/list.js';
import { planList } from '../../registry/read-options.js';
import { entryObject } from '../../registry/cache-entry.js';
import { metaOf } from '../../machinery/object.js';

async function optionalBody(r: ResourceRequest): Promise<unknown> {
  return decodeOptionsBody(await readBody(r.req));
}

/** 200 with the object while it is finalizing, 200 with a Success Status once removed. */
export async function handleDelete(r: ResourceRequest): Promise<void> {
  const dryRun = dryRunOf(r.query);
  const opts = deleteOptionsOf(r.query, await optionalBody(r), dryRun, r.ctx.brand);
  const result = await r.store.delete(r.ctx, r.namespace, r.name, { ...opts, admit: admitFor(r, 'DELETE') });
  writeObject(r.res, 200, result.removed ? result.status : result.obj, r.output);
}

/** Deletes every object the list options select; answers the list of what was deleted. */
export async function handleDeleteCollection(r: ResourceRequest): Promise<void> {
  const dryRun = dryRunOf(r.query);
  const opts = deleteOptionsOf(r.query, await optionalBody(r), dryRun, r.ctx.brand);
  const listOpts = { ...listOptionsOf(r.query), limit: undefined, continue: undefined };
  const selection = selectionFor(r.store.info, listOpts);
  const list = await listEntries(r.store, r.namespace, listOpts, planList(listOpts, r.ctx.brand), selection, r.ctx.brand.metaGroup);
  const items = list.entries.map(entryObject);
  for (const item of items) {
    const meta = metaOf(item);
    try {
      await r.store.delete(r.ctx, meta.namespace ?? '', meta.name ?? '', { ...opts, admit: admitFor({ ...r, name: meta.name ?? '' }, 'DELETE') });
    } catch (e) {
      // Objects deleted concurrently are simply gone; anything else fails the request.
      if ((e as { code?: number }).code !== 404) throw e;
    }
  }
  writeObject(r.res, 200, { apiVersion: list.apiVersion, kind: list.kind, metadata: list.metadata, items }, r.output);
}
