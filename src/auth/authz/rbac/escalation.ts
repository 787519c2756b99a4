/**
 * Escalation prevention (upstream's pkg/registry/rbac/validation: Covers, BreakdownRule,
 * CompactRules, ConfirmNoEscalation; PolicyRule.CompactString): a user may grant only what it
 * holds. The rules to grant are broken into one rule per group, resource, verb and name (or
 * per URL and verb), each must be covered by one rule the user holds; what is not covered is
 * reported, verbs of the same group and resource merged.
 */
import type { PolicyRule } from '../../../machinery/authorization.js';
import type { UserInfo } from '../../../machinery/user.js';
import { aggregate, goQuote } from '../authorizer.js';
import type { PolicyIndex } from './policy-index.js';
import { resolveRules } from './rule-resolver.js';

const ALL = '*';

/** Upstream's BreakdownRule: one rule per group × resource × verb (× name), then per URL × verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (names.length > 0) for (const n of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [n] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function hasAll(set: readonly string[], wanted: readonly string[]): boolean {
  for (const w of wanted) if (!set.includes(w)) return false;
  return true;
}

/** Upstream's resourceCoversAll: `*`, exact, or `*` + `/sub` for a subresource. */
function resourcesCover(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(ALL) || hasAll(owner, wanted)) return true;
  for (const path of wanted) {
    if (owner.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!owner.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

/** Upstream's nonResourceURLCovers: exact, or a prefix when the owner's URL ends in `*`. */
function urlCovers(owner: string, wanted: string): boolean {
  if (owner === wanted) return true;
  return owner.endsWith(ALL) && wanted.startsWith(owner.replace(/\*+$/, ''));
}

function urlsCover(owner: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((w) => owner.some((o) => urlCovers(o, w)));
}

/** Upstream's ruleCovers (for a broken-down rule). */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes(ALL) || hasAll(owner.verbs, sub.verbs);
  const ownerGroups = owner.apiGroups ?? [];
  const groups = ownerGroups.includes(ALL) || hasAll(ownerGroups, sub.apiGroups ?? []);
  const resources = resourcesCover(owner.resources ?? [], sub.resources ?? []);
  const urls = urlsCover(owner.nonResourceURLs ?? [], sub.nonResourceURLs ?? []);
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && names && urls;
}

/** Upstream's Covers: whether the owner's rules cover every servant rule, and the broken-down rules they miss. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const rule of servant) for (const sub of breakdownRule(rule)) if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
  return { covered: missing.length === 0, missing };
}

/**
 * Upstream's CompactRules: rules with one group, one resource, at most one name and no URLs
 * that differ only in verbs become one rule; the others stay as they are.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const names = r.resourceNames ?? [];
    const groups = r.apiGroups ?? [];
    const resources = r.resources ?? [];
    if (names.length > 1 || (r.nonResourceURLs ?? []).length > 0 || groups.length !== 1 || resources.length !== 1) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([groups[0], resources[0], names.length > 0, names[0] ?? '']);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...existing.verbs, ...r.verbs];
    else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  out.push(...simple.values());
  return out;
}

/** Go's %q of a []string: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/** Upstream's PolicyRule.CompactString: `{APIGroups:["g"], Resources:["r"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, values: readonly string[] | undefined) => {
    if (values !== undefined && values.length > 0) parts.push(`${label}:${goQuoteList(values)}`);
  };
  add('APIGroups', r.apiGroups);
  add('Resources', r.resources);
  add('NonResourceURLs', r.nonResourceURLs);
  add('ResourceNames', r.resourceNames);
  add('Verbs', r.verbs);
  return `{${parts.join(', ')}}`;
}

/**
 * Upstream's ConfirmNoEscalation: undefined when the user holds every rule (in `namespace`, or
 * cluster-wide for ''), else the refusal text (what follows `... is forbidden: `).
 */
export function escalationRefusal(index: PolicyIndex, rbacGroup: string, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const held = resolveRules(index, user, namespace, rbacGroup, 'registry');
  const { covered, missing } = covers(held.rules, rules);
  if (covered) return undefined;
  // Sorted and de-duplicated, as upstream's string set.
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${goQuote(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  // Upstream formats its []error with %v: the aggregate inside brackets.
  if (held.errors.length > 0) msg += `; resolution errors: [${aggregate(held.errors)}]`;
  return msg;
}
