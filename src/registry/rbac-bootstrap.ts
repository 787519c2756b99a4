/**
 * The post-start hook `rbac/bootstrap-roles` (upstream pkg/registry/rbac/rest/storage_rbac.go
 * with the reconciliation package): every object of the bootstrap policy is created when
 * missing; an existing one gets back what the policy grants and it lacks (missing rules as
 * upstream's atomic rules, missing aggregation selectors, missing subjects, missing labels and
 * annotations) and keeps whatever users added. Objects annotated autoupdate "false" are left
 * alone. A binding whose roleRef differs is deleted and recreated (roleRef is immutable).
 * Existing objects are compared first, so a restart with nothing to change writes nothing.
 */
import type { PolicyRule } from '../machinery/authorization.js';
import { deepEqual } from '../machinery/deep-equal.js';
import { metaOf, type Obj } from '../machinery/object.js';
import { ownValue } from '../machinery/own-property.js';
import { uncoveredRules } from '../machinery/policy-rule-covers.js';
import { StatusError } from '../machinery/status.js';
import { autoupdateAnnotation } from '../api/rbac/bootstrap-objects.js';
import { bootstrapPolicy } from '../api/rbac/bootstrap-policy.js';
import { rbacGroup } from '../api/rbac/rbac-validation.js';
import { entryObject } from './cache-entry.js';
import type { GenericStore } from './generic-store.js';
import type { Registry } from './registry.js';
import { systemContext } from './bootstrap.js';

/** What one reconciliation did, by `<resource>/<namespace/>name`. */
export interface ReconcileReport {
  created: string[];
  updated: string[];
  recreated: string[];
  /** Annotated autoupdate "false" and not what the policy says: left as they are. */
  protected: string[];
}

/** Reconciles `existing` against `expected`; the object to store, or undefined when nothing changes. */
type Reconcile = (existing: Obj, expected: Obj) => Obj | undefined;

const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

/** Upstream's merge(expected, existing): every expected key, existing values winning. */
function mergeMaps(expected: unknown, existing: unknown): Record<string, string> | undefined {
  const merged = { ...(expected as Record<string, string> | undefined), ...(existing as Record<string, string> | undefined) };
  return Object.keys(merged).length > 0 ? merged : undefined;
}

/** The existing object with the policy's labels and annotations added (never overwritten). */
function withMetadata(existing: Obj, expected: Obj): Obj {
  const next = structuredClone(existing);
  const meta = metaOf(next);
  const labels = mergeMaps(metaOf(expected).labels, meta.labels);
  if (labels) meta.labels = labels;
  const annotations = mergeMaps(metaOf(expected).annotations, meta.annotations);
  if (annotations) meta.annotations = annotations;
  return next;
}

/** Upstream's computeReconciledRole in union mode: missing rules and selectors appended. */
export const reconcileRole: Reconcile = (existing, expected) => {
  const next = withMetadata(existing, expected);
  const have = list<PolicyRule>(existing.rules);
  const missing = uncoveredRules(have, list<PolicyRule>(expected.rules));
  if (missing.length > 0) next.rules = [...have, ...missing];
  const wanted = expected.aggregationRule as { clusterRoleSelectors?: unknown[] } | undefined;
  if (wanted !== undefined) {
    const current = list<unknown>((existing.aggregationRule as { clusterRoleSelectors?: unknown } | undefined)?.clusterRoleSelectors);
    const absent = list<unknown>(wanted.clusterRoleSelectors).filter((s) => !current.some((c) => deepEqual(c, s)));
    if (absent.length > 0) next.aggregationRule = { clusterRoleSelectors: [...current, ...absent] };
  }
  return deepEqual(next, existing) ? undefined : next;
};

interface SubjectFields {
  kind?: string;
  apiGroup?: string;
  name?: string;
  namespace?: string;
}

function sameSubject(a: SubjectFields, b: SubjectFields): boolean {
  return a.kind === b.kind && (a.apiGroup ?? '') === (b.apiGroup ?? '') && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');
}

/** Upstream's computeReconciledRoleBinding in union mode: missing subjects appended. */
export const reconcileBinding: Reconcile = (existing, expected) => {
  const next = withMetadata(existing, expected);
  const have = list<SubjectFields>(existing.subjects);
  const absent = list<SubjectFields>(expected.subjects).filter((s) => !have.some((h) => sameSubject(h, s)));
  if (absent.length > 0) next.subjects = [...have, ...absent];
  return deepEqual(next, existing) ? undefined : next;
};

function roleRefDiffers(existing: Obj, expected: Obj): boolean {
  const a = (existing.roleRef ?? {}) as Record<string, unknown>;
  const b = (expected.roleRef ?? {}) as Record<string, unknown>;
  return a.apiGroup !== b.apiGroup || a.kind !== b.kind || a.name !== b.name;
}

async function current(store: GenericStore, namespace: string, name: string): Promise<Obj | undefined> {
  try {
    return entryObject(await store.readEntry(namespace, name, { kind: 'latest' }));
  } catch (e) {
    if (e instanceof StatusError && e.reason === 'NotFound') return undefined;
    throw e;
  }
}

interface Kind {
  store: GenericStore;
  objects: Obj[];
  reconcile: Reconcile;
  binding: boolean;
}

/** Ensures one object; records what happened in report. */
async function ensureObject(registry: Registry, kind: Kind, expected: Obj, report: ReconcileReport): Promise<void> {
  const { store } = kind;
  const meta = metaOf(expected);
  const namespace = meta.namespace ?? '';
  const name = meta.name as string;
  const label = `${store.info.plural}/${namespace === '' ? '' : `${namespace}/`}${name}`;
  const ctx = systemContext(registry);
  const create = async (obj: Obj) => {
    try {
      await store.create(ctx, namespace, structuredClone(obj), { dryRun: false });
    } catch (e) {
      // Created meanwhile (another server of the cluster): the next start reconciles it.
      if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
    }
  };
  const existing = await current(store, namespace, name);
  if (existing === undefined) {
    await create(expected);
    report.created.push(label);
    return;
  }
  const isProtected = () => ownValue(metaOf(existing).annotations ?? {}, autoupdateAnnotation(registry.brand)) === 'false';
  if (kind.binding && roleRefDiffers(existing, expected)) {
    if (isProtected()) {
      report.protected.push(label);
      return;
    }
    await store.delete(ctx, namespace, name, { dryRun: false, preconditions: { uid: metaOf(existing).uid } });
    // The recreated binding keeps the subjects users added to the old one (upstream's union).
    await create({ ...expected, subjects: (reconcileBinding(existing, expected) ?? existing).subjects });
    report.recreated.push(label);
    return;
  }
  if (kind.reconcile(existing, expected) === undefined) return;
  if (isProtected()) {
    report.protected.push(label);
    return;
  }
  // Reconciled again on what is stored at write time, so a concurrent change is kept.
  await store.guaranteedUpdate(ctx, namespace, name, (cur) => kind.reconcile(cur, expected) ?? cur, { dryRun: false, subresource: '' });
  report.updated.push(label);
}

/**
 * Ensures the bootstrap policy: ClusterRoles, then ClusterRoleBindings, then Roles and
 * RoleBindings (their namespaces exist by now: the bootstrap controller ran first).
 */
export async function reconcileBootstrapPolicy(registry: Registry): Promise<ReconcileReport> {
  const group = rbacGroup(registry.brand);
  const storeOf = (resource: string): GenericStore => {
    const store = registry.byResource(group, resource);
    if (!store) throw new Error(`${resource}.${group} not served`);
    return store;
  };
  const policy = bootstrapPolicy(registry.brand);
  const kinds: Kind[] = [
    { store: storeOf('clusterroles'), objects: policy.clusterRoles, reconcile: reconcileRole, binding: false },
    { store: storeOf('clusterrolebindings'), objects: policy.clusterRoleBindings, reconcile: reconcileBinding, binding: true },
    { store: storeOf('roles'), objects: policy.roles, reconcile: reconcileRole, binding: false },
    { store: storeOf('rolebindings'), objects: policy.roleBindings, reconcile: reconcileBinding, binding: true },
  ];
  const report: ReconcileReport = { created: [], updated: [], recreated: [], protected: [] };
  for (const kind of kinds) await Promise.all(kind.objects.map((obj) => ensureObject(registry, kind, obj, report)));
  return report;
}
