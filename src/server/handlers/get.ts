/** GET of one object (or its status subresource, which is the same object). */
import { writeObject } from '../http.js';
import type { ResourceRequest } from './resource-request.js';

/** Answers 200 with the object, or the Status of why not. */
export async function handleGet(r: ResourceRequest): Promise<void> {
  const obj = await r.store.get(r.namespace, r.name);
  writeObject(r.res, 200, obj, r.encoding, r.pretty);
}
