/**
 * The collector's writes, each guarded so it cannot hit a different object of the same name:
 * deletes carry a uid precondition, and metadata patches carry the object's uid and the
 * resourceVersion they were computed from (a conflict is retried from a fresh read). Merge
 * patches work for every type, custom resources included (upstream falls back to them there).
 */
import { ApiError, type RestClient } from '../../client/rest-client.js';
import type { Identity, ObjectMetadata, OwnerReference } from './graph.js';
import { objectPath, type ResourceType } from './resources.js';

const MERGE_PATCH = 'application/merge-patch+json';
/** Conflicting writers (a controller updating the same object) win this many times before the item is requeued. */
const CONFLICT_RETRIES = 5;

export type Propagation = 'Orphan' | 'Background' | 'Foreground';

/** The object's metadata, or undefined when it does not exist. */
export async function getMetadata(client: RestClient, type: ResourceType, namespace: string, name: string): Promise<ObjectMetadata | undefined> {
  const path = objectPath(type, namespace, name);
  const res = await client.request<{ metadata?: ObjectMetadata }>('GET', path);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new ApiError(res.status, res.body, `GET ${path}`);
  return res.body.metadata ?? {};
}

/** Deletes the object if it still has this uid (and resourceVersion, when given); a missing object is no error. */
export async function deleteObject(client: RestClient, type: ResourceType, id: Identity, policy: Propagation, resourceVersion?: string): Promise<void> {
  const path = objectPath(type, id.namespace, id.name);
  const preconditions = resourceVersion === undefined ? { uid: id.uid } : { uid: id.uid, resourceVersion };
  const body = { kind: 'DeleteOptions', apiVersion: 'v1', preconditions, propagationPolicy: policy };
  const res = await client.request('DELETE', path, body);
  if (res.status === 200 || res.status === 202 || res.status === 404) return;
  throw new ApiError(res.status, res.body, `DELETE ${path}`);
}

/**
 * Rewrites metadata of the object with this identity from its latest state: `change` returns
 * the fields to set, or undefined when nothing needs to change. A gone object is no error.
 */
async function patchMetadata(
  client: RestClient,
  type: ResourceType,
  id: Identity,
  change: (meta: ObjectMetadata) => Partial<ObjectMetadata> | undefined,
): Promise<void> {
  const path = objectPath(type, id.namespace, id.name);
  for (let attempt = 0; ; attempt++) {
    const meta = await getMetadata(client, type, id.namespace, id.name);
    if (meta === undefined || meta.uid !== id.uid) return;
    const fields = change(meta);
    if (fields === undefined) return;
    const res = await client.request('PATCH', path, { metadata: { ...fields, uid: id.uid, resourceVersion: meta.resourceVersion } }, MERGE_PATCH);
    if (res.status === 200 || res.status === 201 || res.status === 404) return;
    if (res.status === 409 && attempt < CONFLICT_RETRIES) continue;
    throw new ApiError(res.status, res.body, `PATCH ${path}`);
  }
}

/** Removes the references to these owner uids from the dependent. */
export function removeOwnerReferences(client: RestClient, type: ResourceType, dependent: Identity, ownerUids: ReadonlySet<string>): Promise<void> {
  return patchMetadata(client, type, dependent, (meta) => {
    const refs = meta.ownerReferences ?? [];
    const kept = refs.filter((r) => !ownerUids.has(r.uid));
    if (kept.length === refs.length) return undefined;
    // null removes the field, as upstream's patch leaves no empty list behind.
    return { ownerReferences: kept.length === 0 ? (null as unknown as OwnerReference[]) : kept };
  });
}

/** Sets blockOwnerDeletion to false on every reference of the object (upstream's cycle breaker). */
export function unblockOwnerReferences(client: RestClient, type: ResourceType, id: Identity): Promise<void> {
  return patchMetadata(client, type, id, (meta) => {
    const refs = meta.ownerReferences ?? [];
    if (!refs.some((r) => r.blockOwnerDeletion === true)) return undefined;
    return { ownerReferences: refs.map((r: OwnerReference) => (r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r)) };
  });
}

/** Removes one finalizer from the object. */
export function removeFinalizer(client: RestClient, type: ResourceType, id: Identity, finalizer: string): Promise<void> {
  return patchMetadata(client, type, id, (meta) => {
    const finalizers = meta.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return undefined;
    // null removes the field in a merge patch; an empty list would too, but null matches an absent list.
    const kept = finalizers.filter((f) => f !== finalizer);
    return { finalizers: kept.length === 0 ? (null as unknown as string[]) : kept };
  });
}
