/** ClusterRoleBinding: RBAC names need only be valid path segments. */
import { rbac } from '../groups.js';

export const clusterRoleBindings = rbac({ kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false, nameRule: 'path-segment' });
