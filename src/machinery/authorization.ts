/**
 * Authorization attributes, decisions and rules, as upstream's authorizer package has them:
 * every mode (RBAC, ABAC, Node, Webhook, AlwaysAllow/Deny) implements `Authorizer`.
 */
import type { UserInfo } from './user.js';

export interface Attributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
}

export type Decision = 'allow' | 'deny' | 'no-opinion';

/** One module's answer: upstream's (decision, reason, error). */
export interface Authorization {
  decision: Decision;
  /** Why (shown after a 403's message and in review statuses); '' when the module gives none. */
  reason: string;
  /** The module could not decide (a webhook that failed): with nobody allowing, the request is 500. */
  error?: string;
}

/** One rule as SelfSubjectRulesReview reports it (rbac/v1 PolicyRule without nonResourceURLs). */
export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs: string[];
}

/** What a user may do in a namespace, as far as a module can tell (upstream's RulesFor). */
export interface Rules {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  /** True when the module cannot list everything it would allow (webhook, Node). */
  incomplete: boolean;
  error?: string;
}

export interface Authorizer {
  /** Synchronous when the module can answer from memory: requests then cost no promise. */
  authorize(attrs: Attributes): Authorization | Promise<Authorization>;
  rulesFor(user: UserInfo, namespace: string): Rules | Promise<Rules>;
}

export const ALLOW: Authorization = Object.freeze({ decision: 'allow', reason: '' });
export const NO_OPINION: Authorization = Object.freeze({ decision: 'no-opinion', reason: '' });
export const NO_RULES: Rules = Object.freeze({ resourceRules: [], nonResourceRules: [], incomplete: false });

/** rbac/v1 PolicyRule: what a Role grants (resource rules) or a ClusterRole (also non-resource URLs). */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}
