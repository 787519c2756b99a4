/**
 * `<workload>/<name>/scale` (upstream's ScaleREST of deployments, replicasets, statefulsets and
 * replicationcontrollers): the parent shown as an autoscaling/v1 Scale — its identity,
 * `spec.replicas`, `status.replicas` and the selector as text — and writes of a Scale that
 * change only the parent's `spec.replicas` (compare-and-swap when the Scale carries a
 * resourceVersion, as the parent's own update would).
 */
import { isPlainObject, metaOf, type Obj } from '../machinery/object.js';
import { invalidObject } from '../machinery/status.js';
import { labelSelectorFromObject, labelSelectorFromSet, type LabelSelector } from '../machinery/label-selector.js';
import { rec } from '../machinery/fields.js';
import type { Capabilities } from './capabilities.js';
import type { GenericStore } from './generic-store.js';
import { entryObject } from './cache-entry.js';

const SCALE_GROUP_VERSION = 'autoscaling/v1';

/** The selector as labels.Selector.String() prints it (ReplicationControllers carry a plain map). */
function selectorText(spec: Record<string, unknown>, mapSelector: boolean): string {
  if (mapSelector) {
    return labelSelectorFromSet(isPlainObject(spec.selector) ? (spec.selector as Record<string, string>) : {}).text;
  }
  try {
    return labelSelectorFromObject((spec.selector ?? null) as LabelSelector | null).text;
  } catch {
    return '';
  }
}

/** The Scale of a workload object, fields in upstream's order. */
export function scaleOf(parent: Obj, mapSelector: boolean): Obj {
  const meta = metaOf(parent);
  const spec = rec(parent.spec);
  const status = rec(parent.status);
  const selector = selectorText(spec, mapSelector);
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 0;
  return {
    kind: 'Scale',
    apiVersion: SCALE_GROUP_VERSION,
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: replicas === 0 ? {} : { replicas },
    status: { replicas: typeof status.replicas === 'number' ? status.replicas : 0, ...(selector ? { selector } : {}) },
  };
}

/** Upstream's ValidateScale. */
function validateScale(scale: Obj): void {
  const replicas = rec(scale.spec).replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw invalidObject('Scale', 'autoscaling', metaOf(scale).name ?? '', [
      { type: 'FieldValueInvalid', field: 'spec.replicas', value: replicas, detail: 'must be greater than or equal to 0' },
    ]);
  }
}

export function scaleCapabilities(gs: GenericStore): Capabilities {
  // ReplicationControllers select with a label map, the apps workloads with a LabelSelector.
  const mapSelector = gs.info.group === '' && gs.info.plural === 'replicationcontrollers';
  const update: NonNullable<Capabilities['updater']>['update'] = async (ctx, namespace, name, transform, opts) => {
    const result = await gs.guaranteedUpdate(
      ctx,
      namespace,
      name,
      async (parent) => {
        const next = await transform(scaleOf(parent, mapSelector));
        validateScale(next);
        const meta = metaOf(parent);
        // A Scale naming a resourceVersion is a compare-and-swap on the parent.
        const rv = metaOf(next).resourceVersion;
        if (typeof rv === 'string' && rv !== '') meta.resourceVersion = rv;
        const spec = rec(parent.spec);
        parent.spec = { ...spec, replicas: rec(next.spec).replicas ?? 0 };
        return parent;
      },
      { ...opts, subresource: 'scale' },
    );
    return { obj: scaleOf(result.obj, mapSelector), created: false };
  };
  return {
    getter: {
      async readEntry(namespace, name, plan) {
        const entry = await gs.readEntry(namespace, name, plan);
        return { ...entry, json: Buffer.from(JSON.stringify(scaleOf(entryObject(entry), mapSelector))) };
      },
    },
    updater: { update },
    patcher: { update, patches: true },
  };
}
