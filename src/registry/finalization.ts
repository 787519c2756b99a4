/**
 * Two-phase deletion (spec "Deletion of a resource"): an object with finalizers is marked
 * with deletionTimestamp and removed only once its last finalizer is gone. Namespaces also
 * wait for the finalizers in `spec.finalizers`, which the namespace controller clears.
 */
import type { Obj } from '../machinery/object.js';
import { isPlainObject, metaOf, rfc3339 } from '../machinery/object.js';
import type { ResourceInfo } from './resource-info.js';

function isNamespace(info: ResourceInfo): boolean {
  return info.group === '' && info.plural === 'namespaces';
}

/** Finalizers that still hold the object: metadata.finalizers plus a namespace's spec.finalizers. */
export function pendingFinalizers(info: ResourceInfo, obj: Obj): string[] {
  const out = [...(metaOf(obj).finalizers ?? [])];
  if (isNamespace(info) && isPlainObject(obj.spec) && Array.isArray(obj.spec.finalizers)) {
    out.push(...(obj.spec.finalizers as string[]));
  }
  return out;
}

/**
 * The object marked as deleting, or undefined when it can be removed at once.
 * Marking sets deletionTimestamp (and a namespace's phase Terminating).
 */
export function prepareForDeletion(info: ResourceInfo, obj: Obj, now: Date): Obj | undefined {
  if (pendingFinalizers(info, obj).length === 0) return undefined;
  const meta = metaOf(obj);
  meta.deletionTimestamp = rfc3339(now);
  meta.deletionGracePeriodSeconds = 0;
  if (isNamespace(info)) {
    obj.status = { ...(isPlainObject(obj.status) ? obj.status : {}), phase: 'Terminating' };
  }
  return obj;
}
