/** GET of a collection: a list (optionally chunked), served per the List table. */
import { planList } from '../../registry/read-options.js';
import { selectionFor } from '../../registry/selection.js';
import { streamList } from '../stream-list.js';
import type { ResourceRequest } from './resource-request.js';
import { listOptionsOf } from './options.js';

/** Answers the list of objects the options select. */
export async function handleList(r: ResourceRequest): Promise<void> {
  const lister = r.scope.capabilities.lister;
  if (lister === undefined) throw new Error(`${r.scope.info.plural} routed a list without a Lister`);
  const opts = listOptionsOf(r.query);
  const plan = planList(opts, r.ctx.brand);
  const selection = selectionFor(r.scope.info, opts);
  const list = await lister.list(r.namespace, opts, plan, selection);
  if (!r.remainingItemCount) delete list.metadata.remainingItemCount;
  // Written a batch at a time, in any representation (stream-list.ts).
  return streamList(r, list);
}
