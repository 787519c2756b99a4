/**
 * Upstream 1.25's RBAC bootstrap policy as one value: every default ClusterRole,
 * ClusterRoleBinding, Role and RoleBinding the API server ensures at start, spelled by the Brand
 * (bootstrap-objects.ts says how orch's names differ from upstream's).
 *
 * Era markers, so later upstream additions are not mistaken for 1.25's: no `/metrics/slis`
 * (1.26) in system:monitoring (system:basic-user has 1.26's `selfsubjectreviews`, because orch
 * serves that API for `kubectl auth whoami`); the endpoints
 * leader-election rules of the scheduler and controller manager (removed in 1.28) and the
 * config-map leader-locking Roles (leases only from 1.31) are still there; the glusterfs rules
 * of the volume controllers (removed with the plugin in 1.26) too.
 */
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { clusterRoleBindings, clusterRoles } from './bootstrap-cluster-roles.js';
import { controllerRoles } from './bootstrap-controller-roles.js';
import { namespaceRoleBindings, namespaceRoles } from './bootstrap-namespace-roles.js';

export interface BootstrapPolicy {
  clusterRoles: Obj[];
  clusterRoleBindings: Obj[];
  /** Roles with metadata.namespace set. */
  roles: Obj[];
  roleBindings: Obj[];
}

/** The whole policy; a fresh copy per call (callers may change it). */
export function bootstrapPolicy(brand: Brand): BootstrapPolicy {
  const controllers = controllerRoles(brand);
  return {
    clusterRoles: [...clusterRoles(brand), ...controllers.roles],
    clusterRoleBindings: [...clusterRoleBindings(brand), ...controllers.bindings],
    roles: namespaceRoles(brand),
    roleBindings: namespaceRoleBindings(brand),
  };
}
