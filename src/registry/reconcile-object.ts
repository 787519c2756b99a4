/**
 * How the API server's own controllers keep an object as they want it (the `kubernetes` Service
 * and its endpoints, the authentication ConfigMap): as upstream's reconcilers, they read first
 * and write only when something would change, so a reconcile of objects already right (every
 * start, every interval) costs one read and no write.
 */
import { deepEqual } from '../machinery/deep-equal.js';
import type { Obj } from '../machinery/object.js';
import { StatusError } from '../machinery/status.js';
import { entryObject } from './cache-entry.js';
import type { RequestContext } from './context.js';
import type { GenericStore } from './generic-store.js';

/** Writes namespace/name as transform makes it from what is stored (undefined: create it), unless that changes nothing. */
export async function reconcileObject(
  store: GenericStore,
  ctx: RequestContext,
  namespace: string,
  name: string,
  transform: (cur: Obj | undefined) => Obj,
): Promise<void> {
  const current = await Promise.resolve(store.readEntry(namespace, name, { kind: 'latest' })).then(entryObject, (e: unknown) => {
    if (e instanceof StatusError && e.reason === 'NotFound') return undefined;
    throw e;
  });
  if (current !== undefined && deepEqual(transform(structuredClone(current)), current)) return;
  await store.guaranteedUpdate(ctx, namespace, name, transform, { dryRun: false, subresource: '', createIfMissing: {} });
}
