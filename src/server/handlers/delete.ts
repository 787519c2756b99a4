/** DELETE of one object, and of a collection. */
import { writeObject, readBody } from '../http.js';
import { badRequest } from '../../machinery/status.js';
import { admitFor, dryRunOf, listOptionsOf, type ResourceRequest } from './resource-request.js';
import { deleteOptionsOf } from './delete-options.js';
import { selectionFor } from '../../registry/selection.js';
import { listObjects } from '../../registry/list.js';
import { metaOf } from '../../machinery/object.js';

async function optionalBody(r: ResourceRequest): Promise<unknown> {
  const raw = await readBody(r.req);
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${e instanceof Error ? e.message : String(e)}`);
  }
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
  const listOpts = listOptionsOf(r.query);
  const selection = selectionFor(r.store.info, listOpts);
  const list = await listObjects(
    r.store,
    r.registry.store,
    r.store.info,
    r.namespace,
    { ...listOpts, limit: undefined, continue: undefined },
    selection,
    r.ctx.brand.metaGroup,
  );
  for (const item of list.items) {
    const meta = metaOf(item);
    try {
      await r.store.delete(r.ctx, meta.namespace ?? '', meta.name ?? '', { ...opts, admit: admitFor({ ...r, name: meta.name ?? '' }, 'DELETE') });
    } catch (e) {
      // Objects deleted concurrently are simply gone; anything else fails the request.
      if ((e as { code?: number }).code !== 404) throw e;
    }
  }
  writeObject(r.res, 200, list, r.output);
}
