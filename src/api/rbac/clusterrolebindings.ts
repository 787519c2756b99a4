/** ClusterRoleBinding: RBAC names need only be valid path segments; refers to a ClusterRole, for good. */
import { rbac } from '../groups.js';
import { defaultBinding, validateBinding, validateBindingUpdate } from './rbac-validation.js';

export const clusterRoleBindings = rbac({
  kind: 'ClusterRoleBinding',
  plural: 'clusterrolebindings',
  namespaced: false,
  nameRule: 'path-segment',
  strategy: {
    defaults: (obj, ctx) => defaultBinding(obj, ctx.brand),
    validate: (obj, ctx) => validateBinding(obj, false, ctx.brand),
    validateUpdate: (obj, old, ctx) => validateBindingUpdate(obj, old, false, ctx.brand),
  },
});
