/** GET of a collection: a list (optionally chunked), served per the List table. */
import { listEntries } from '../../registry/list.js';
import { planList } from '../../registry/read-options.js';
import { selectionFor } from '../../registry/selection.js';
import { streamList } from '../stream-list.js';
import { listOptionsOf, type ResourceRequest } from './resource-request.js';

/** Answers the list of objects the options select. */
export async function handleList(r: ResourceRequest): Promise<void> {
  const opts = listOptionsOf(r.query);
  const plan = planList({ ...opts, sendInitialEvents: r.query.get('sendInitialEvents') ?? undefined }, r.ctx.brand);
  const selection = selectionFor(r.store.info, opts);
  const list = await listEntries(r.store, r.namespace, opts, plan, selection, r.ctx.brand.metaGroup);
  // Written a batch at a time, in any representation (stream-list.ts).
  return streamList(r, list);
}
