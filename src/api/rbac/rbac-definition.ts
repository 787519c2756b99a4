/**
 * What the four RBAC definitions share: names need only be valid path segments (upstream's
 * ValidateRBACName), and the two bindings differ only in their scope.
 */
import { rbac } from '../groups.js';
import type { ResourceDefinition, Strategy } from '../types.js';
import { defaultBinding, validateBinding, validateBindingUpdate } from './rbac-validation.js';

/** An RBAC resource of this kind, plural and scope. */
export function rbacDefinition(kind: string, plural: string, namespaced: boolean, strategy: Strategy): ResourceDefinition {
  return rbac({ kind, plural, namespaced, nameRule: 'path-segment', strategy });
}

/** A RoleBinding's (namespaced) or ClusterRoleBinding's strategy: RBAC groups defaulted, roleRef fixed for good. */
export function bindingStrategy(namespaced: boolean): Strategy {
  return {
    defaults: (obj, ctx) => defaultBinding(obj, ctx.brand),
    validate: (obj, ctx) => validateBinding(obj, namespaced, ctx.brand),
    validateUpdate: (obj, old, ctx) => validateBindingUpdate(obj, old, namespaced, ctx.brand),
  };
}
