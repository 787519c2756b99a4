/**
 * Two-phase deletion (spec "Deletion of a resource"): an object with finalizers is marked
 * with deletionTimestamp and removed only once its last finalizer is gone. A type's strategy
 * may add finalizers of its own (a namespace's spec.finalizers) and mark a deleting object.
 */
import type { Obj } from '../machinery/object.js';
import { metaOf, rfc3339 } from '../machinery/object.js';
import type { ResourceInfo } from './resource-info.js';

/** Finalizers that still hold the object: metadata.finalizers plus the type's own. */
export function pendingFinalizers(info: ResourceInfo, obj: Obj): string[] {
  const own = info.def.strategy?.finalizers?.(obj) ?? [];
  const meta = metaOf(obj).finalizers ?? [];
  return own.length === 0 ? meta : [...meta, ...own];
}

/**
 * The object marked as deleting, or undefined when it can be removed at once.
 * Marking sets deletionTimestamp (and whatever the type's strategy marks).
 */
export function prepareForDeletion(info: ResourceInfo, obj: Obj, now: Date): Obj | undefined {
  if (pendingFinalizers(info, obj).length === 0) return undefined;
  const meta = metaOf(obj);
  meta.deletionTimestamp = rfc3339(now);
  meta.deletionGracePeriodSeconds = 0;
  info.def.strategy?.prepareForDeletion?.(obj);
  return obj;
}
