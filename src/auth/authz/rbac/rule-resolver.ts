/**
 * Upstream's rule resolution over the index: the rules of every binding that applies to a user
 * (ClusterRoleBindings, then RoleBindings of the namespace), and an error for each binding
 * whose role is missing. The authorizer reads roles through listers, whose not-found errors
 * name the singular kind (`clusterrole.rbac.authorization.k8s.io "x" not found`); the
 * escalation checks read them through the registry, whose errors name the resource
 * (`clusterroles.rbac.authorization.k8s.io "x" not found`).
 */
import type { PolicyRule } from '../../../machinery/authorization.js';
import type { UserInfo } from '../../../machinery/user.js';
import { goQuote } from '../authorizer.js';
import type { PolicyIndex, RoleRef } from './policy-index.js';

/** How missing-role errors name the role: as the authorizer's listers or as the registry does. */
export type RoleNaming = 'lister' | 'registry';

/** Upstream's GetRoleReferenceRules error for a reference that resolves to nothing. */
export function roleReferenceError(ref: RoleRef, rbacGroup: string, naming: RoleNaming): string {
  if (ref.kind !== 'Role' && ref.kind !== 'ClusterRole') return `unsupported role reference kind: ${goQuote(ref.kind)}`;
  const resource = ref.kind === 'Role' ? 'role' : 'clusterrole';
  return `${resource}${naming === 'registry' ? 's' : ''}.${rbacGroup} ${goQuote(ref.name)} not found`;
}

export interface ResolvedRules {
  rules: PolicyRule[];
  /** One per binding whose role could not be read, in visiting order. */
  errors: string[];
}

/** Upstream's RulesFor: every rule the user holds in the namespace ('' for cluster-wide only). */
export function resolveRules(index: PolicyIndex, user: UserInfo, namespace: string, rbacGroup: string, naming: RoleNaming): ResolvedRules {
  const out: ResolvedRules = { rules: [], errors: [] };
  index.visitBindings(user, namespace, (b) => {
    const rules = index.roleRules(b.roleRef, b.namespace);
    if (rules === undefined) out.errors.push(roleReferenceError(b.roleRef, rbacGroup, naming));
    else for (const r of rules) out.rules.push(r);
    return true;
  });
  return out;
}
