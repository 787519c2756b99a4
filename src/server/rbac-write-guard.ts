/**
 * Upstream's escalation checks of RBAC writes (pkg/registry/rbac/escalation_check.go and the
 * policybased storages): `system:masters` may write anything; a Role or ClusterRole may be
 * written by whoever may `escalate` it or already holds every rule in it (a ClusterRole's
 * aggregation rule needs full authority); a binding by whoever may `bind` its role or already
 * holds every rule of the role. A write changing only what garbage collection changes
 * (owner references, finalizers) is not checked.
 */
import type { Attributes, Authorizer } from '../auth/authz/authorizer.js';
import { escalationRefusal } from '../auth/authz/rbac/escalation.js';
import { type PolicyIndex, policyRuleOf } from '../auth/authz/rbac/policy-index.js';
import { roleReferenceError } from '../auth/authz/rbac/rule-resolver.js';
import type { PolicyRule } from '../machinery/authorization.js';
import { deepEqual } from '../machinery/deep-equal.js';
import { isPlainObject, metaOf, type Obj } from '../machinery/object.js';
import { forbidden, internalError, notFound } from '../machinery/status.js';
import type { UserInfo } from '../machinery/user.js';
import type { RbacWrite, RbacWriteGuard } from '../registry/rbac-store.js';

const MASTERS = 'system:masters';

/** What an aggregation rule can gather: everything (upstream's fullAuthority). */
const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

export interface RbacGuardDeps {
  /** The server's whole authorizer chain (asked for `escalate` and `bind`). */
  authorizer(): Authorizer;
  /** The RBAC objects, as the RBAC mode reads them. */
  index: PolicyIndex;
  /** The RBAC API group as the brand spells it. */
  rbacGroup: string;
}

export function rbacWriteGuard(deps: RbacGuardDeps): RbacWriteGuard {
  const { index, rbacGroup } = deps;
  const allowed = async (user: UserInfo, verb: string, resource: string, namespace: string, name: string): Promise<boolean> => {
    const attrs: Attributes = {
      user,
      verb,
      isResourceRequest: true,
      path: '',
      namespace,
      apiGroup: rbacGroup,
      apiVersion: '*',
      resource,
      subresource: '',
      name,
    };
    // An authorizer's error counts as no (upstream logs it and refuses).
    return (await deps.authorizer().authorize(attrs)).decision === 'allow';
  };
  const refuse = (w: RbacWrite, why: string) => forbidden({ group: rbacGroup, resource: w.resource }, metaOf(w.obj).name ?? '', why);

  return {
    async check(w) {
      if (w.user.groups.includes(MASTERS)) return;
      if (w.resource === 'roles' || w.resource === 'clusterroles') {
        // The URL's resource and name, as upstream's RoleEscalationAuthorized reads the request.
        if (await allowed(w.user, 'escalate', w.resource, w.namespace, w.requestName)) return;
        if (w.old !== undefined && onlyGCFieldsChange(w.obj, w.old)) return;
        const refusal = escalationRefusal(index, rbacGroup, w.user, w.namespace, rulesOf(w.obj));
        if (refusal !== undefined) throw refuse(w, refusal);
        if (w.resource === 'clusterroles' && (hasAggregationRule(w.obj) || (w.old !== undefined && hasAggregationRule(w.old)))) {
          if (escalationRefusal(index, rbacGroup, w.user, '', FULL_AUTHORITY) !== undefined) {
            throw refuse(w, 'must have cluster-admin privileges to use the aggregationRule');
          }
        }
        return;
      }
      if (w.old !== undefined && onlyGCFieldsChange(w.obj, w.old)) return;
      const ref = isPlainObject(w.obj.roleRef) ? w.obj.roleRef : {};
      const roleRef = { kind: String(ref.kind ?? ''), name: String(ref.name ?? ''), apiGroup: String(ref.apiGroup ?? '') };
      // Upstream's BindingAuthorized: `bind` on the role, in the binding's namespace.
      const roleResource = roleRef.kind === 'ClusterRole' ? 'clusterroles' : roleRef.kind === 'Role' ? 'roles' : '';
      if (roleResource !== '' && (await allowed(w.user, 'bind', roleResource, w.namespace, roleRef.name))) return;
      const rules = index.roleRules(roleRef, w.namespace);
      if (rules === undefined) {
        // Upstream reads the role through the registry: 404 for a missing one, 500 for an unknown kind.
        if (roleResource === '') throw internalError(new Error(roleReferenceError(roleRef, rbacGroup, 'registry')));
        throw notFound({ group: rbacGroup, resource: roleResource }, roleRef.name);
      }
      const refusal = escalationRefusal(index, rbacGroup, w.user, w.namespace, rules);
      if (refusal !== undefined) throw refuse(w, refusal);
    },
  };
}

function rulesOf(obj: Obj): PolicyRule[] {
  return Array.isArray(obj.rules) ? obj.rules.map(policyRuleOf) : [];
}

function hasAggregationRule(obj: Obj): boolean {
  return isPlainObject(obj.aggregationRule);
}

/** Upstream's IsOnlyMutatingGCFields: equal once owner references, finalizers, selfLink and managedFields are taken from the old object. */
function onlyGCFieldsChange(obj: Obj, old: Obj): boolean {
  const copy = structuredClone(obj);
  const meta = metaOf(copy) as Record<string, unknown>;
  const oldMeta = metaOf(old) as Record<string, unknown>;
  for (const field of ['ownerReferences', 'finalizers', 'selfLink', 'managedFields']) {
    if (Object.hasOwn(oldMeta, field)) meta[field] = oldMeta[field];
    else delete meta[field];
  }
  return deepEqual(copy, old);
}
