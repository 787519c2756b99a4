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
import type { PolicyIndex } from './policy-index.js';
import { describeBinding } from './policy-index.js';
import { aggregateErrors, resolveRules, roleReferenceError } from './rule-resolver.js';
import { combinedResource, ruleAllows } from './rules.js';

/** An authorizer that answers from memory: never a promise. */
export interface SyncAuthorizer extends Authorizer {
  authorize(attrs: Attributes): Authorization;
  rulesFor(user: UserInfo, namespace: string): Rules;
}

export function rbacAuthorizer(index: PolicyIndex, rbacGroup: string): SyncAuthorizer {
  return {
    authorize(attrs): Authorization {
      const combined = attrs.isResourceRequest ? combinedResource(attrs) : '';
      let allowedBy = '';
      let errors: string[] | undefined;
      index.visitBindings(attrs.user, attrs.namespace, (b, subjectIndex) => {
        const rules = index.roleRules(b.roleRef, b.namespace);
        if (rules === undefined) {
          (errors ??= []).push(roleReferenceError(b.roleRef, rbacGroup, 'lister'));
          return true;
        }
        for (const rule of rules) {
          if (ruleAllows(attrs, rule, combined)) {
            allowedBy = describeBinding(b, subjectIndex);
            return false;
          }
        }
        return true;
      });
      if (allowedBy !== '') return { decision: 'allow', reason: `RBAC: allowed by ${allowedBy}` };
      return errors === undefined ? NO_OPINION : { decision: 'no-opinion', reason: `RBAC: ${aggregateErrors(errors)}` };
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
      if (errors.length > 0) out.error = aggregateErrors(errors);
      return out;
    },
  };
}
