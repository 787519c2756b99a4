/** Role: every rule names verbs, groups and resources. */
import { rbacDefinition } from './rbac-definition.js';
import { validateRole } from './rbac-validation.js';

export const roles = rbacDefinition('Role', 'roles', true, { validate: validateRole, validateUpdate: validateRole });
