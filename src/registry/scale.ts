/**
 * `<workload>/<name>/scale` (upstream's ScaleREST of deployments, replicasets, statefulsets and
 * replicationcontrollers, and of custom resources at their definition's paths): the parent shown as an autoscaling/v1 Scale — its identity,
 * `spec.replicas`, `status.replicas` and the selector as text — and writes of a Scale that
 * change only the parent's `spec.replicas` (compare-and-swap when the Scale carries a
 * resourceVersion, as the parent's own update would).
 */
import { isPlainObject, metaOf, type Obj } from '../machinery/object.js';
import { invalidObject } from '../machinery/status.js';
import { labelSelectorFromObject, labelSelectorFromSet, type LabelSelector } from '../machinery/label-selector.js';
import { rec } from '../machinery/fields.js';
import type { Capabilities } from './capabilities.js';
import type { ScalePaths } from '../api/types.js';
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

/**
 * Where a parent keeps what its Scale shows: a workload's fixed fields, or the paths a custom
 * resource's definition names (upstream's scaleFromCustomResource).
 */
interface ScaleAccess {
  specReplicas(parent: Obj): number;
  setSpecReplicas(parent: Obj, replicas: number): void;
  statusReplicas(parent: Obj): number;
  selector(parent: Obj): string;
}

function numberOr0(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** A workload's `spec.replicas`, `status.replicas` and its selector as text. */
function workloadAccess(mapSelector: boolean): ScaleAccess {
  return {
    specReplicas: (parent) => numberOr0(rec(parent.spec).replicas),
    setSpecReplicas(parent, replicas) {
      parent.spec = { ...rec(parent.spec), replicas };
    },
    statusReplicas: (parent) => numberOr0(rec(parent.status).replicas),
    selector: (parent) => selectorText(rec(parent.spec), mapSelector),
  };
}

/** The fields of a `.a.b` path (CRD scale paths are dotted field paths from the root). */
function pathFields(path: string): string[] {
  return path.split('.').slice(1);
}

function valueAtPath(obj: Obj, fields: readonly string[]): unknown {
  let v: unknown = obj;
  for (const f of fields) v = isPlainObject(v) && Object.hasOwn(v, f) ? v[f] : undefined;
  return v;
}

/** A custom resource's scale at the paths its definition declares. */
function pathAccess(paths: ScalePaths): ScaleAccess {
  const spec = pathFields(paths.specReplicasPath);
  const status = pathFields(paths.statusReplicasPath);
  const selector = paths.labelSelectorPath ? pathFields(paths.labelSelectorPath) : undefined;
  return {
    specReplicas: (parent) => numberOr0(valueAtPath(parent, spec)),
    setSpecReplicas(parent, replicas) {
      let into: Record<string, unknown> = parent;
      for (const f of spec.slice(0, -1)) {
        if (!isPlainObject(into[f])) into[f] = {};
        into = into[f] as Record<string, unknown>;
      }
      into[spec[spec.length - 1]] = replicas;
    },
    statusReplicas: (parent) => numberOr0(valueAtPath(parent, status)),
    selector(parent) {
      const v = selector ? valueAtPath(parent, selector) : undefined;
      return typeof v === 'string' ? v : '';
    },
  };
}

/** The Scale of a parent object, fields in upstream's order. */
function scaleOf(parent: Obj, access: ScaleAccess): Obj {
  const meta = metaOf(parent);
  const replicas = access.specReplicas(parent);
  const selector = access.selector(parent);
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
    status: { replicas: access.statusReplicas(parent), ...(selector ? { selector } : {}) },
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
  const paths = gs.info.def.scalePaths;
  const access = paths ? pathAccess(paths) : workloadAccess(gs.info.group === '' && gs.info.plural === 'replicationcontrollers');
  const update: NonNullable<Capabilities['updater']>['update'] = async (ctx, namespace, name, transform, opts) => {
    const result = await gs.guaranteedUpdate(
      ctx,
      namespace,
      name,
      async (parent) => {
        const next = await transform(scaleOf(parent, access));
        validateScale(next);
        const meta = metaOf(parent);
        // A Scale naming a resourceVersion is a compare-and-swap on the parent.
        const rv = metaOf(next).resourceVersion;
        if (typeof rv === 'string' && rv !== '') meta.resourceVersion = rv;
        access.setSpecReplicas(parent, numberOr0(rec(next.spec).replicas));
        return parent;
      },
      { ...opts, subresource: 'scale' },
    );
    return { obj: scaleOf(result.obj, access), created: false };
  };
  return {
    getter: {
      async readEntry(namespace, name, plan) {
        const entry = await gs.readEntry(namespace, name, plan);
        return { ...entry, json: Buffer.from(JSON.stringify(scaleOf(entryObject(entry), access))) };
      },
    },
    updater: { update },
    patcher: { update, patches: true },
  };
}
