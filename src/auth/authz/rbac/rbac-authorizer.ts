/**
 * The RBAC authorization mode (upstream's RBACAuthorizer): a request is allowed by the first
 * rule of a binding naming the user (or one of its groups) that matches it, with the binding
 * as the reason; otherwise no opinion, with the missing roles met on the way as the reason.
 * Synchronous: everything is in the index.
 */
import type { UserInfo } from '../../../machinery/user.js';
import {
  type Attributes,
  type Authorization,
  type Authorizer,
  NO_OPINION,
  type NonResourceRule,
  type ResourceRule,
  type Rules,
} from '../../../machinery/authorization.js';
import type { BindingVisitor, IndexedBinding, PolicyIndex } from './policy-index.js';
import { describeBinding } from './policy-index.js';
import { aggregate } from '../authorizer.js';
import { resolveRules, roleReferenceError } from './rule-resolver.js';
import { combinedResource, ruleAllows } from './rules.js';

/** An authorizer that answers from memory: never a promise. */
export interface SyncAuthorizer extends Authorizer {
  authorize(attrs: Attributes): Authorization;
  rulesFor(user: UserInfo, namespace: string): Rules;
}

export function rbacAuthorizer(index: PolicyIndex, rbacGroup: string): SyncAuthorizer {
  // One request at a time runs through the visitor (authorize is synchronous and never
  // re-entered), so its state lives here and a request allocates nothing to visit bindings.
  const probe = {
    attrs: undefined as Attributes | undefined,
    combined: '',
    allowed: undefined as Authorization | undefined,
    errors: undefined as string[] | undefined,
  };
  const visit: BindingVisitor = (b, subjectIndex) => {
    const rules = index.roleRules(b.roleRef, b.namespace);
    if (rules === undefined) {
      (probe.errors ??= []).push(roleReferenceError(b.roleRef, rbacGroup, 'lister'));
      return true;
    }
    const attrs = probe.attrs as Attributes;
    for (const rule of rules) {
      if (ruleAllows(attrs, rule, probe.combined)) {
        probe.allowed = allowance(b, subjectIndex);
        return false;
      }
    }
    return true;
  };
  return {
    authorize(attrs): Authorization {
      probe.attrs = attrs;
      probe.combined = attrs.isResourceRequest ? combinedResource(attrs) : '';
      probe.allowed = undefined;
      probe.errors = undefined;
      try {
        index.visitBindings(attrs.user, attrs.namespace, visit);
        if (probe.allowed !== undefined) return probe.allowed;
        return probe.errors === undefined ? NO_OPINION : { decision: 'no-opinion', reason: `RBAC: ${aggregate(probe.errors)}` };
      } finally {
        probe.attrs = undefined;
        probe.errors = undefined;
      }
    },

    rulesFor(user, namespace): Rules {
      const { rules, errors } = resolveRules(index, user, namespace, rbacGroup, 'lister');
      const resourceRules: ResourceRule[] = [];
      const nonResourceRules: NonResourceRule[] = [];
      // As upstream: a rule with resources is reported as a resource rule, one with URLs as a
      // non-resource rule (a rule with both, which validation refuses, as both).
      for (const r of rules) {
        if ((r.resources ?? []).length > 0) {
          const rr: ResourceRule = { verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources ?? [] };
          if ((r.resourceNames ?? []).length > 0) rr.resourceNames = r.resourceNames;
          resourceRules.push(rr);
        }
        if ((r.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] });
      }
      const out: Rules = { resourceRules, nonResourceRules, incomplete: false };
      if (errors.length > 0) out.error = aggregate(errors);
      return out;
    },
  };
}

/** The allow answer of a binding through one of its subjects, built once (bindings are replaced, never changed, when they change). */
function allowance(b: IndexedBinding, subjectIndex: number): Authorization {
  let a = b.allowances[subjectIndex];
  if (a === undefined) {
    a = Object.freeze({ decision: 'allow', reason: `RBAC: allowed by ${describeBinding(b, subjectIndex)}` });
    b.allowances[subjectIndex] = a;
  }
  return a;
}
