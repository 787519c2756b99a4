/**
 * Pod binding as upstream's BindingREST (POST pods/<name>/binding, or the bindings resource):
 * validate the Binding, run validating admission on it, then in one read-modify-write of the
 * pod (starting from the watch cache's copy) set spec.nodeName (once), merge the binding's
 * annotations and mark PodScheduled True.
 */
import { validatePodBinding } from '../api/core/pod-validation.js';
import { metaOf, type Obj, rfc3339 } from '../machinery/object.js';
import { badRequest, conflict, type GroupResource, invalidObject, notFound } from '../machinery/status.js';
import { goQuote } from '../machinery/validation.js';
import type { AdmissionHook, RequestContext } from './context.js';
import type { GenericStore } from './generic-store.js';
import { rec } from '../machinery/fields.js';

/** Where the pods are stored (a Registry is one). */
export interface PodStores {
  byResource(group: string, resource: string): GenericStore | undefined;
}

const PODS: GroupResource = { group: '', resource: 'pods' };
/** Upstream reports a refused assignment as a conflict on this pseudo-resource. */
const POD_BINDINGS: GroupResource = { group: '', resource: 'pods/binding' };

export interface BindOptions {
  dryRun: boolean;
  /** The pod name in the URL (pods/<name>/binding); undefined for the bindings resource. */
  urlName?: string;
  /** Validating admission of the Binding. */
  validatingAdmission?: AdmissionHook;
}

/** Upstream's podutil.UpdatePodCondition for PodScheduled=True: the transition time moves only on a change. */
function markScheduled(status: Record<string, unknown>, now: Date): void {
  const conditions = Array.isArray(status.conditions) ? [...status.conditions] : [];
  const condition: Record<string, unknown> = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(now) };
  const at = conditions.findIndex((c) => rec(c).type === 'PodScheduled');
  if (at < 0) conditions.push(condition);
  else {
    const old = rec(conditions[at]);
    if (old.status === 'True') condition.lastTransitionTime = old.lastTransitionTime;
    conditions[at] = condition;
  }
  status.conditions = conditions;
}

/** Binds the Binding's pod to its target node; resolves when stored (or, on dry run, checked). */
export async function bindPod(registry: PodStores, ctx: RequestContext, namespace: string, binding: Obj, opts: BindOptions): Promise<void> {
  const meta = metaOf(binding);
  const name = meta.name ?? '';
  if (opts.urlName !== undefined && opts.urlName !== name) throw badRequest('name in URL does not match name in Binding object');
  if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  meta.namespace = namespace;
  const errs = validatePodBinding(binding);
  if (errs.length > 0) throw invalidObject('Binding', '', name, errs);
  await opts.validatingAdmission?.(binding, undefined);
  const pods = registry.byResource('', 'pods');
  if (!pods) throw notFound(PODS, name);
  // Only the subresource form keeps the Binding's uid and resourceVersion, as preconditions on the pod.
  const uid = opts.urlName !== undefined ? (meta.uid ?? '') : '';
  const resourceVersion = opts.urlName !== undefined ? (meta.resourceVersion ?? '') : '';
  const node = String(rec(binding.target).name ?? '');
  // Upstream's assignPod: a SimpleUpdate of the stored pod, none of the pod's update rules (its
  // defaults, admission, managed fields or validation) apply.
  await pods.simpleUpdate(
    namespace,
    name,
    (pod) => {
      const podMeta = metaOf(pod);
      if (uid !== '' && uid !== podMeta.uid) {
        throw conflict(PODS, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${podMeta.uid ?? ''}`);
      }
      if (resourceVersion !== '' && resourceVersion !== podMeta.resourceVersion) {
        throw conflict(
          PODS,
          name,
          `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${podMeta.resourceVersion ?? ''}`,
        );
      }
      if (podMeta.deletionTimestamp !== undefined && podMeta.deletionTimestamp !== null) {
        throw conflict(POD_BINDINGS, name, `pod ${podMeta.name} is being deleted, cannot be assigned to a host`);
      }
      const spec = rec(pod.spec);
      if (typeof spec.nodeName === 'string' && spec.nodeName !== '') {
        throw conflict(POD_BINDINGS, name, `pod ${podMeta.name} is already assigned to node ${goQuote(spec.nodeName)}`);
      }
      spec.nodeName = node;
      pod.spec = spec;
      podMeta.annotations = { ...(podMeta.annotations ?? {}), ...(meta.annotations ?? {}) };
      const status = rec(pod.status);
      markScheduled(status, ctx.now);
      pod.status = status;
    },
    opts.dryRun,
  );
}
