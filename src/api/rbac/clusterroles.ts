/** ClusterRole: RBAC names need only be valid path segments. */
import { rbac } from '../groups.js';

export const clusterRoles = rbac({ kind: 'ClusterRole', plural: 'clusterroles', namespaced: false, nameRule: 'path-segment' });
