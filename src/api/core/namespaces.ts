/**
 * Namespace: created Active and holding the brand's namespace finalizer, which only the
 * `finalize` subresource may change afterwards.
 */
import { core } from '../groups.js';
import { text, WITHOUT_DELETECOLLECTION } from '../define.js';
import type { Obj } from '../../machinery/object.js';
import { isPlainObject } from '../../machinery/object.js';
import type { Strategy } from '../types.js';

function specOf(obj: Obj): Record<string, unknown> {
  if (!isPlainObject(obj.spec)) obj.spec = {};
  return obj.spec as Record<string, unknown>;
}

const namespaceStrategy: Strategy = {
  prepareForCreate(obj, ctx) {
    obj.status = { phase: 'Active' };
    const spec = specOf(obj);
    const finalizers = Array.isArray(spec.finalizers) ? (spec.finalizers as unknown[]) : [];
    if (!finalizers.includes(ctx.brand.namespaceFinalizer)) spec.finalizers = [...finalizers, ctx.brand.namespaceFinalizer];
  },
  prepareForUpdate(obj, old, ctx) {
    // Only a main-resource write carries the finalizers over; `finalize` is how they change.
    if (ctx.subresource !== '') return;
    const oldFinalizers = isPlainObject(old.spec) ? old.spec.finalizers : undefined;
    if (oldFinalizers !== undefined) specOf(obj).finalizers = oldFinalizers;
    else if (isPlainObject(obj.spec)) delete obj.spec.finalizers;
  },
  // The namespace controller's finalizer lives in spec.finalizers; the namespace is removed
  // only once it and metadata.finalizers are empty.
  finalizers(obj) {
    return isPlainObject(obj.spec) && Array.isArray(obj.spec.finalizers) ? (obj.spec.finalizers as string[]) : [];
  },
  prepareForDeletion(obj) {
    obj.status = { ...(isPlainObject(obj.status) ? obj.status : {}), phase: 'Terminating' };
  },
};

export const namespaces = core({
  kind: 'Namespace',
  plural: 'namespaces',
  shortNames: ['ns'],
  namespaced: false,
  verbs: WITHOUT_DELETECOLLECTION,
  subresources: { status: true, finalize: true },
  nameRule: 'label',
  strategy: namespaceStrategy,
  fieldSelectors: { 'status.phase': text('status.phase') },
});
