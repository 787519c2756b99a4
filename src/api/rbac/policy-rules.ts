/**
 * Building PolicyRules as upstream's rbac/v1 helpers (NewRule(...).Groups(...).Resources(...)
 * .RuleOrDie()) do: every list sorted, so stored rules read exactly as upstream's testdata. The
 * API groups come from the Brand: upstream's `<stem>.k8s.io` groups are `<stem>.orch.io` in orch.
 */
import type { Brand } from '../../machinery/brand.js';
import type { PolicyRule } from '../../machinery/authorization.js';

export const READ: readonly string[] = ['get', 'list', 'watch'];
export const WRITE: readonly string[] = ['create', 'update', 'patch', 'delete', 'deletecollection'];
export const READ_WRITE: readonly string[] = [...READ, ...WRITE];
export const READ_UPDATE: readonly string[] = [...READ, 'update', 'patch'];

const sorted = (values: readonly string[]): string[] => [...values].sort();

/** A resource rule: verbs on resources of groups (optionally only the named objects). */
export function rule(verbs: readonly string[], groups: readonly string[], resources: readonly string[], names: readonly string[] = []): PolicyRule {
  const r: PolicyRule = { verbs: sorted(verbs), apiGroups: sorted(groups), resources: sorted(resources) };
  if (names.length > 0) r.resourceNames = sorted(names);
  return r;
}

/** A non-resource rule: verbs on URL paths (a trailing `*` is a prefix). */
export function urlRule(verbs: readonly string[], urls: readonly string[]): PolicyRule {
  return { verbs: sorted(verbs), nonResourceURLs: sorted(urls) };
}

/** The API groups the bootstrap policy names, spelled by the brand (upstream's group constants). */
export interface PolicyGroups {
  readonly core: string;
  readonly apps: string;
  readonly autoscaling: string;
  readonly batch: string;
  readonly extensions: string;
  readonly policy: string;
  readonly admissionregistration: string;
  readonly authentication: string;
  readonly authorization: string;
  readonly certificates: string;
  readonly coordination: string;
  readonly discovery: string;
  readonly events: string;
  readonly networking: string;
  readonly node: string;
  readonly rbac: string;
  readonly storage: string;
  readonly resourceMetrics: string;
  readonly customMetrics: string;
  readonly externalMetrics: string;
}

export function policyGroups(brand: Brand): PolicyGroups {
  const g = (stem: string) => brand.group(stem, true);
  return {
    core: '',
    apps: 'apps',
    autoscaling: 'autoscaling',
    batch: 'batch',
    extensions: 'extensions',
    policy: 'policy',
    admissionregistration: g('admissionregistration'),
    authentication: g('authentication'),
    authorization: g('authorization'),
    certificates: g('certificates'),
    coordination: g('coordination'),
    discovery: g('discovery'),
    events: g('events'),
    networking: g('networking'),
    node: g('node'),
    rbac: g('rbac.authorization'),
    storage: g('storage'),
    resourceMetrics: g('metrics'),
    customMetrics: g('custom.metrics'),
    externalMetrics: g('external.metrics'),
  };
}

/** Upstream's eventsRule(): create, update and patch events in the core and events groups. */
export function eventsRule(groups: PolicyGroups): PolicyRule {
  return rule(['create', 'update', 'patch'], [groups.core, groups.events], ['events']);
}
