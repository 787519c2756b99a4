/**
 * Namespace: created Active and holding the brand's namespace finalizer, which only the
 * `finalize` subresource may change afterwards; finalizer names are validated as upstream's,
 * and a namespace is labelled with its own name (upstream's kubernetes.io/metadata.name, in the
 * brand's label domain).
 */
import { core } from '../groups.js';
import { text, WITHOUT_DELETECOLLECTION } from '../define.js';
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { isPlainObject } from '../../machinery/object.js';
import { standardFinalizers } from '../../machinery/object-meta-validation.js';
import { type FieldError, invalid } from '../../machinery/status.js';
import { isQualifiedName } from '../../machinery/validation.js';
import type { Strategy } from '../types.js';
import { rec, str, strings } from '../../machinery/fields.js';

/** Upstream's validateFinalizerName: a qualified name, and a standard one when it has no domain. */
function finalizerNameErrors(name: string, fldPath: string, brand: Brand): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(fldPath, name, m));
  if (!name.includes('/') && !standardFinalizers(brand).has(name)) {
    errs.push(invalid(fldPath, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

/** Upstream's ValidateNamespaceStatusUpdate: the phase follows deletionTimestamp. */
function statusPhaseErrors(obj: Obj): FieldError[] {
  const phase = str(rec(obj.status).phase);
  if (obj.metadata?.deletionTimestamp === undefined || obj.metadata?.deletionTimestamp === null) {
    return phase === 'Active' ? [] : [invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  }
  return phase === 'Terminating' ? [] : [invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
}

function specOf(obj: Obj): Record<string, unknown> {
  if (!isPlainObject(obj.spec)) obj.spec = {};
  return obj.spec as Record<string, unknown>;
}

/** Upstream's SetDefaults_Namespace (and its Canonicalize, for generated names): the name as a label. */
function labelWithName(obj: Obj, brand: Brand): void {
  const name = str(obj.metadata?.name);
  if (!name || !obj.metadata) return;
  obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [`${brand.labelDomain}/metadata.name`]: name };
}

const namespaceStrategy: Strategy = {
  defaults: (obj, ctx) => labelWithName(obj, ctx.brand),
  prepareForCreate(obj, ctx) {
    labelWithName(obj, ctx.brand);
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
  // Upstream's ValidateNamespace reports every spec finalizer at `spec.finalizers` (no index).
  validate: (obj, ctx) => strings(rec(obj.spec).finalizers).flatMap((f) => finalizerNameErrors(f, 'spec.finalizers', ctx.brand)),
  validateUpdate(obj, _old, ctx) {
    if (ctx.subresource === 'finalize') return strings(rec(obj.spec).finalizers).flatMap((f, i) => finalizerNameErrors(f, `spec.finalizers[${i}]`, ctx.brand));
    if (ctx.subresource === 'status') return statusPhaseErrors(obj);
    return [];
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
