/** Role: RBAC names need only be valid path segments; every rule names verbs, groups and resources. */
import { rbac } from '../groups.js';
import { validateRole } from './rbac-validation.js';

export const roles = rbac({
  kind: 'Role',
  plural: 'roles',
  namespaced: true,
  nameRule: 'path-segment',
  strategy: { validate: validateRole, validateUpdate: validateRole },
});
