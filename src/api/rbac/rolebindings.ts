/** RoleBinding: RBAC names need only be valid path segments; refers to a Role or ClusterRole, for good. */
import { rbac } from '../groups.js';
import { defaultBinding, validateBinding, validateBindingUpdate } from './rbac-validation.js';

export const roleBindings = rbac({
  kind: 'RoleBinding',
  plural: 'rolebindings',
  namespaced: true,
  nameRule: 'path-segment',
  strategy: {
    defaults: (obj, ctx) => defaultBinding(obj, ctx.brand),
    validate: (obj, ctx) => validateBinding(obj, true, ctx.brand),
    validateUpdate: (obj, old, ctx) => validateBindingUpdate(obj, old, true, ctx.brand),
  },
});
