/** ClusterRoleBinding: refers to a ClusterRole, for good. */
import { bindingStrategy, rbacDefinition } from './rbac-definition.js';

export const clusterRoleBindings = rbacDefinition('ClusterRoleBinding', 'clusterrolebindings', false, bindingStrategy(false));
