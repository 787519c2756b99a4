/**
 * pods/<name>/eviction (upstream's EvictionREST): deletes the pod unless that would break its
 * PodDisruptionBudget. A pod that is not running (pending, succeeded, failed) or already being
 * deleted is deleted at once; otherwise the one PDB selecting it must have caught up with its
 * spec and allow a disruption, which the eviction uses up (recording the pod in
 * `status.disruptedPods`) before the pod is deleted. Answers upstream's 201 Success Status.
 */
import { isPlainObject, metaOf, type Obj, rfc3339 } from '../machinery/object.js';
import { badRequest, forbidden, internalError, StatusError, successStatus } from '../machinery/status.js';
import { labelSelectorFromObject, type LabelSelector } from '../machinery/label-selector.js';
import { rec } from '../machinery/fields.js';
import type { Creater } from './capabilities.js';
import type { DeleteOptions, RequestContext } from './context.js';
import { entryObject } from './cache-entry.js';
import { readObject, type StoresByResource } from './read-object.js';
import { listPrefix } from './resource-info.js';

const PDB_GROUP = 'policy';
/** Upstream's cap on pods evicted but not yet seen gone by the disruption controller. */
const MAX_DISRUPTED_PODS = 2000;
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

function tooManyRequests(message: string, cause?: string): StatusError {
  return new StatusError(429, 'TooManyRequests', message, cause ? { causes: [{ reason: 'DisruptionBudget', message: cause }] } : {});
}

/** Upstream's canIgnorePDB: pods that are not running, or already going, need no budget. */
function canIgnoreBudget(pod: Obj): boolean {
  const phase = rec(pod.status).phase;
  if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending') return true;
  const ts = metaOf(pod).deletionTimestamp;
  return ts !== undefined && ts !== null;
}

/** The budgets of the pod's namespace whose selector selects it (a nil or empty selector selects nothing). */
function budgetsOf(stores: StoresByResource, pod: Obj): Obj[] {
  const pdbs = stores.byResource(PDB_GROUP, 'poddisruptionbudgets');
  if (!pdbs?.cache) return [];
  const meta = metaOf(pod);
  const labels = meta.labels ?? {};
  const out: Obj[] = [];
  for (const entry of pdbs.cache.list(listPrefix(pdbs.info, meta.namespace ?? ''))) {
    const pdb = entryObject(entry);
    const sel = rec(pdb.spec).selector;
    if (!isPlainObject(sel)) continue;
    let matcher: ReturnType<typeof labelSelectorFromObject>;
    try {
      matcher = labelSelectorFromObject(sel as LabelSelector);
    } catch {
      continue;
    }
    if (matcher.isEverything || matcher.isNothing || !matcher(labels)) continue;
    out.push(pdb);
  }
  return out;
}

/** Upstream's checkAndDecrement, applied to the stored budget (retried on conflict by the update loop). */
async function useDisruption(stores: StoresByResource, ctx: RequestContext, pdbName: string, pod: Obj, dryRun: boolean): Promise<void> {
  const pdbs = stores.byResource(PDB_GROUP, 'poddisruptionbudgets');
  if (!pdbs) return;
  const podMeta = metaOf(pod);
  const check = (pdb: Obj): Record<string, unknown> => {
    const status = rec(pdb.status);
    const generation = Number(metaOf(pdb).generation ?? 0);
    if (Number(status.observedGeneration ?? 0) < generation) {
      throw tooManyRequests(VIOLATION, `The disruption budget ${pdbName} is still being processed by the server.`);
    }
    const allowed = Number(status.disruptionsAllowed ?? 0);
    if (allowed < 0) throw forbidden({ group: PDB_GROUP, resource: 'poddisruptionbudgets' }, pdbName, 'pdb disruptions allowed is negative');
    const disrupted = isPlainObject(status.disruptedPods) ? status.disruptedPods : {};
    if (Object.keys(disrupted).length > MAX_DISRUPTED_PODS) {
      throw forbidden(
        { group: PDB_GROUP, resource: 'poddisruptionbudgets' },
        pdbName,
        'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
      );
    }
    if (allowed === 0) {
      throw tooManyRequests(
        VIOLATION,
        `The disruption budget ${pdbName} needs ${Number(status.desiredHealthy ?? 0)} healthy pods and has ${Number(status.currentHealthy ?? 0)} currently`,
      );
    }
    return status;
  };
  if (dryRun) {
    check(await readObject(stores, PDB_GROUP, 'poddisruptionbudgets', podMeta.namespace ?? '', pdbName));
    return;
  }
  await pdbs.guaranteedUpdate(
    ctx,
    podMeta.namespace ?? '',
    pdbName,
    (pdb) => {
      const status = check(pdb);
      status.disruptionsAllowed = Number(status.disruptionsAllowed) - 1;
      if (status.disruptionsAllowed === 0) markNoDisruptionAllowed(status, ctx.now);
      // The disruption controller drops the entry once it sees the pod gone (or after a timeout).
      const disrupted = isPlainObject(status.disruptedPods) ? { ...status.disruptedPods } : {};
      Object.defineProperty(disrupted, podMeta.name ?? '', { value: rfc3339(ctx.now), enumerable: true, writable: true, configurable: true });
      status.disruptedPods = disrupted;
      pdb.status = status;
      return pdb;
    },
    { dryRun: false, subresource: 'status' },
  );
}

/** Upstream's UpdateDisruptionAllowedCondition at zero (apimeta.SetStatusCondition: the time moves only on a change). */
function markNoDisruptionAllowed(status: Record<string, unknown>, now: Date): void {
  const conditions = Array.isArray(status.conditions) ? [...status.conditions] : [];
  const at = conditions.findIndex((c) => rec(c).type === 'DisruptionAllowed');
  const old = at >= 0 ? rec(conditions[at]) : undefined;
  const condition = {
    type: 'DisruptionAllowed',
    status: 'False',
    observedGeneration: status.observedGeneration,
    lastTransitionTime: old?.status === 'False' ? old.lastTransitionTime : rfc3339(now),
    reason: 'InsufficientPods',
    message: typeof old?.message === 'string' ? old.message : '',
  };
  if (at >= 0) conditions[at] = condition;
  else conditions.push(condition);
  status.conditions = conditions;
}

/** The eviction's DeleteOptions as the pod delete takes them. */
function deleteOptionsOf(eviction: Obj, dryRun: boolean): DeleteOptions {
  const o = rec(eviction.deleteOptions);
  const pre = isPlainObject(o.preconditions) ? o.preconditions : undefined;
  return {
    dryRun,
    gracePeriodSeconds: typeof o.gracePeriodSeconds === 'number' ? o.gracePeriodSeconds : undefined,
    propagationPolicy: typeof o.propagationPolicy === 'string' ? (o.propagationPolicy as DeleteOptions['propagationPolicy']) : undefined,
    preconditions: pre ? { uid: pre.uid as string | undefined, resourceVersion: pre.resourceVersion as string | undefined } : undefined,
  };
}

export function evictionCreater(stores: StoresByResource): Creater {
  return {
    async create(ctx, namespace, eviction, opts) {
      const name = opts.name ?? '';
      if ((metaOf(eviction).name ?? '') !== name) throw badRequest('name in URL does not match name in Eviction object');
      await opts.validatingAdmission?.(eviction, undefined);
      const pods = stores.byResource('', 'pods');
      if (!pods) throw internalError('pods are not served');
      const pod = await readObject(stores, '', 'pods', namespace, name);
      const remove = async () => {
        await pods.delete(ctx, namespace, name, deleteOptionsOf(eviction, opts.dryRun));
        return { ...successStatus(), code: 201 };
      };
      if (canIgnoreBudget(pod)) return remove();
      const budgets = budgetsOf(stores, pod);
      if (budgets.length > 1) throw internalError('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
      if (budgets.length === 1) await useDisruption(stores, ctx, metaOf(budgets[0]).name ?? '', pod, opts.dryRun);
      return remove();
    },
  };
}
