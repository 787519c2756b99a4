/** ClusterRole: RBAC names need only be valid path segments; rules may name non-resource URLs; optional aggregation. */
import { rbac } from '../groups.js';
import { validateClusterRole } from './rbac-validation.js';

export const clusterRoles = rbac({
  kind: 'ClusterRole',
  plural: 'clusterroles',
  namespaced: false,
  nameRule: 'path-segment',
  strategy: { validate: validateClusterRole, validateUpdate: validateClusterRole },
});
