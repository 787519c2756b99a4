/**
 * How a DELETE asks the garbage collector to treat dependents (upstream's store
 * deletionFinalizersForGarbageCollection): `Orphan` puts the `orphan` finalizer on the owner,
 * `Foreground` the `foregroundDeletion` finalizer, `Background` neither (it removes both). With
 * no policy given, a finalizer already on the object decides, else the type's default
 * (background, except orphan for core/v1 ReplicationControllers). The collector removes the finalizer when done.
 */
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../machinery/object-meta-validation.js';
import type { DeleteOptions } from './context.js';

/** The object's finalizers after this delete, or undefined when they stay as they are. */
export function finalizersForPropagation(
  current: readonly string[],
  policy: DeleteOptions['propagationPolicy'],
  orphanByDefault = false,
): string[] | undefined {
  const carried = firstGcFinalizer(current);
  const orphan = policy === 'Orphan' || (policy === undefined && (carried === FINALIZER_ORPHAN_DEPENDENTS || (carried === undefined && orphanByDefault)));
  const foreground = policy === 'Foreground' || (policy === undefined && carried === FINALIZER_DELETE_DEPENDENTS);
  const next = current.filter((f) => f !== FINALIZER_ORPHAN_DEPENDENTS && f !== FINALIZER_DELETE_DEPENDENTS);
  if (orphan) next.push(FINALIZER_ORPHAN_DEPENDENTS);
  if (foreground) next.push(FINALIZER_DELETE_DEPENDENTS);
  // Set equality, as upstream: a reordering alone is no change.
  const before = new Set(current);
  const after = new Set(next);
  if (before.size === after.size && [...after].every((f) => before.has(f))) return undefined;
  return next;
}

/** The first of the two collector finalizers on the object (validation keeps them exclusive). */
function firstGcFinalizer(finalizers: readonly string[]): string | undefined {
  return finalizers.find((f) => f === FINALIZER_ORPHAN_DEPENDENTS || f === FINALIZER_DELETE_DEPENDENTS);
}
