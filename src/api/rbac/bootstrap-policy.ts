/**
 * Upstream 1.25's RBAC bootstrap policy as one value: every default ClusterRole,
 * ClusterRoleBinding, Role and RoleBinding the API server ensures at start, spelled by the Brand
 * (bootstrap-objects.ts says how orch's names differ from upstream's).
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
