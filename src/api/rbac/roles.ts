/** Role: RBAC names need only be valid path segments. */
import { rbac } from '../groups.js';

export const roles = rbac({ kind: 'Role', plural: 'roles', namespaced: true, nameRule: 'path-segment' });
