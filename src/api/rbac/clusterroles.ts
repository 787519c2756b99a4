/** ClusterRole: rules may name non-resource URLs; optional aggregation. */
import { rbacDefinition } from './rbac-definition.js';
import { validateClusterRole } from './rbac-validation.js';

export const clusterRoles = rbacDefinition('ClusterRole', 'clusterroles', false, { validate: validateClusterRole, validateUpdate: validateClusterRole });
