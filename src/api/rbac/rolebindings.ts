/** RoleBinding: RBAC names need only be valid path segments. */
import { rbac } from '../groups.js';

export const roleBindings = rbac({ kind: 'RoleBinding', plural: 'rolebindings', namespaced: true, nameRule: 'path-segment' });
