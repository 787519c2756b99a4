/**
 * The names, labels and object shapes of the bootstrap policy, from the Brand. Compat mode
 * spells exactly upstream's: label `kubernetes.io/bootstrapping: rbac-defaults`, annotation
 * `rbac.authorization.kubernetes.io/autoupdate: "true"`, aggregation labels
 * `rbac.authorization.k8s.io/aggregate-to-*`, users `system:kube-scheduler` and
 * `system:kube-controller-manager`. orch mode puts its label domain (`orch.io`) where upstream has
 * `kubernetes.io`, its RBAC group where upstream has `rbac.authorization.k8s.io`, and its word
 * (`orch`) in the names of its own components (`system:orch-scheduler`); names of components orch
 * does not ship (kube-proxy, kube-dns, kube-aggregator) stay upstream's.
 */
import type { Brand } from '../../machinery/brand.js';
import type { PolicyRule } from '../../machinery/authorization.js';
import type { Obj } from '../../machinery/object.js';
import { rbacGroup } from './rbac-validation.js';

/** Upstream's `system:controller:` prefix of controller roles (saRolePrefix). */
export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

/** The label every bootstrap object carries (`kubernetes.io/bootstrapping` upstream). */
export function bootstrappingLabel(brand: Brand): string {
  return `${brand.labelDomain}/bootstrapping`;
}

/** The annotation that, set to "false", keeps reconciliation off an object. */
export function autoupdateAnnotation(brand: Brand): string {
  return `rbac.authorization.${brand.labelDomain}/autoupdate`;
}

/** The label that puts a ClusterRole's rules into `admin`, `edit` or `view`. */
export function aggregateToLabel(brand: Brand, role: 'admin' | 'edit' | 'view'): string {
  return `${rbacGroup(brand)}/aggregate-to-${role}`;
}

/** The users, service accounts and lock names of the control-plane components the policy names. */
export interface ComponentNames {
  /** The scheduler's user and its ClusterRole (`system:kube-scheduler`). */
  schedulerUser: string;
  /** Its lease / lock name and service account (`kube-scheduler`). */
  scheduler: string;
  controllerManagerUser: string;
  controllerManager: string;
  kubeProxyUser: string;
}

export function componentNames(brand: Brand): ComponentNames {
  return {
    schedulerUser: `system:${brand.word}-scheduler`,
    scheduler: `${brand.word}-scheduler`,
    controllerManagerUser: `system:${brand.word}-controller-manager`,
    controllerManager: `${brand.word}-controller-manager`,
    kubeProxyUser: 'system:kube-proxy',
  };
}

/** A binding subject (rbac/v1 Subject). */
export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export const user = (brand: Brand, name: string): Subject => ({ kind: 'User', apiGroup: rbacGroup(brand), name });
export const group = (brand: Brand, name: string): Subject => ({ kind: 'Group', apiGroup: rbacGroup(brand), name });
export const serviceAccount = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

function metadata(brand: Brand, name: string, namespace: string | undefined, labels: Record<string, string> = {}): Obj['metadata'] {
  return {
    name,
    ...(namespace !== undefined ? { namespace } : {}),
    labels: { [bootstrappingLabel(brand)]: 'rbac-defaults', ...labels },
    annotations: { [autoupdateAnnotation(brand)]: 'true' },
  };
}

export interface RoleOptions {
  labels?: Record<string, string>;
  /** Labels a ClusterRole's aggregation rule selects (one matchLabels selector each). */
  aggregates?: Record<string, string>[];
}

/** A ClusterRole (namespace undefined) or Role of the bootstrap policy. */
export function role(brand: Brand, name: string, namespace: string | undefined, rules: PolicyRule[] | null, opts: RoleOptions = {}): Obj {
  const obj: Obj = {
    apiVersion: `${rbacGroup(brand)}/v1`,
    kind: namespace === undefined ? 'ClusterRole' : 'Role',
    metadata: metadata(brand, name, namespace, opts.labels),
  };
  if (opts.aggregates) obj.aggregationRule = { clusterRoleSelectors: opts.aggregates.map((matchLabels) => ({ matchLabels })) };
  obj.rules = rules;
  return obj;
}

/** A ClusterRoleBinding (namespace undefined) or RoleBinding named `name`, to roleRef. */
export function binding(
  brand: Brand,
  name: string,
  namespace: string | undefined,
  roleRef: { kind: 'Role' | 'ClusterRole'; name: string },
  subjects: Subject[],
): Obj {
  const obj: Obj = {
    apiVersion: `${rbacGroup(brand)}/v1`,
    kind: namespace === undefined ? 'ClusterRoleBinding' : 'RoleBinding',
    metadata: metadata(brand, name, namespace),
    roleRef: { apiGroup: rbacGroup(brand), kind: roleRef.kind, name: roleRef.name },
  };
  // Upstream's system:node binding has no subjects at all (the Node authorizer decides).
  if (subjects.length > 0) obj.subjects = subjects;
  return obj;
}

/** Upstream's NewClusterBinding(role).…: a ClusterRoleBinding named after its ClusterRole. */
export function clusterBinding(brand: Brand, roleName: string, subjects: Subject[]): Obj {
  return binding(brand, roleName, undefined, { kind: 'ClusterRole', name: roleName }, subjects);
}
