/**
 * Upstream's policy comparator (pkg/registry/rbac/validation/policy_comparator.go): whether
 * one set of PolicyRules grants everything another does, and which atomic rules it lacks.
 * Bootstrap reconciliation adds back exactly those atomic rules; the escalation check asks
 * the same question of a user's rules against a role's.
 */
import type { PolicyRule } from './authorization.js';

const ALL = '*';

/** One rule per (group, resource, verb[, name]) and per (URL, verb), as upstream's BreakdownRule. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (names.length > 0) {
          for (const name of names) out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] });
        } else {
          out.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
        }
      }
    }
  }
  // Non-resource URLs combine only with verbs.
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ verbs: [verb], nonResourceURLs: [url] });
  return out;
}

function hasAll(set: readonly string[], wanted: readonly string[]): boolean {
  for (const w of wanted) if (!set.includes(w)) return false;
  return true;
}

function resourcesCoverAll(owned: readonly string[], wanted: readonly string[]): boolean {
  if (owned.includes(ALL) || hasAll(owned, wanted)) return true;
  for (const path of wanted) {
    if (owned.includes(path)) continue;
    const slash = path.indexOf('/');
    // A whole resource is covered only by itself or `*`; a subresource also by `*/<sub>`.
    if (slash < 0 || !owned.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function urlCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));
}

/** Upstream's ruleCovers: owner grants everything the (atomic) sub rule does. */
function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const verbs = owner.verbs.includes(ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = (owner.apiGroups ?? []).includes(ALL) || hasAll(owner.apiGroups ?? [], sub.apiGroups ?? []);
  const resources = resourcesCoverAll(owner.resources ?? [], sub.resources ?? []);
  const urls = (sub.nonResourceURLs ?? []).every((p) => (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, p)));
  const names = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && names && urls;
}

/** The atomic rules of `servant` that no rule of `owner` covers (empty: owner covers servant). */
export function uncoveredRules(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const rule of servant) {
    for (const sub of breakdownRule(rule)) if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  }
  return missing;
}
