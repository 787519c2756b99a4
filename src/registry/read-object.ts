/** One object as a Get with no resourceVersion reads it (latest), for subresources that consult others. */
import type { Obj } from '../machinery/object.js';
import { notFound } from '../machinery/status.js';
import { entryObject } from './cache-entry.js';
import type { GenericStore } from './generic-store.js';
import { planGet } from './read-options.js';

export interface StoresByResource {
  byResource(group: string, resource: string): GenericStore | undefined;
}

export async function readObject(stores: StoresByResource, group: string, resource: string, namespace: string, name: string): Promise<Obj> {
  const store = stores.byResource(group, resource);
  if (!store) throw notFound({ group, resource }, name);
  return entryObject(await store.readEntry(namespace, name, planGet(undefined)));
}
