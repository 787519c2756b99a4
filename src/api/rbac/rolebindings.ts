/** RoleBinding: refers to a Role or ClusterRole, for good. */
import { bindingStrategy, rbacDefinition } from './rbac-definition.js';

export const roleBindings = rbacDefinition('RoleBinding', 'rolebindings', true, bindingStrategy(true));
