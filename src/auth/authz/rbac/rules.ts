/**
 * Whether a PolicyRule covers a request (upstream's rbac/v1 evaluation helpers): verbs and
 * API groups `*` or exact; resources `*`, exact `res` or `res/sub`, or `*` + `/sub`; resourceNames
 * empty for all, else exact (so list, watch and unnamed create match only rules without
 * names); nonResourceURLs `*`, exact, or a prefix when the rule ends in `*`.
 */
import type { Attributes, PolicyRule } from '../../../machinery/authorization.js';

const ALL = '*';

function anyOf(values: readonly string[] | undefined, wanted: string): boolean {
  if (!values) return false;
  for (const v of values) if (v === ALL || v === wanted) return true;
  return false;
}

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return anyOf(rule.verbs, verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return anyOf(rule.apiGroups, group);
}

/** `combined` is `res` or `res/sub`; `subresource` is the request's subresource ('' for none). */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames;
  if (!names || names.length === 0) return true;
  return names.includes(name);
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === ALL || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** `res` or `res/sub`: what resource rules name for a request. */
export function combinedResource(attrs: Attributes): string {
  return attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
}

/**
 * Upstream's RuleAllows. `combined` is `combinedResource(attrs)`, passed in by callers that
 * match many rules against one request, so the string is built once.
 */
export function ruleAllows(attrs: Attributes, rule: PolicyRule, combined = combinedResource(attrs)): boolean {
  if (!verbMatches(rule, attrs.verb)) return false;
  if (!attrs.isResourceRequest) return nonResourceURLMatches(rule, attrs.path);
  return apiGroupMatches(rule, attrs.apiGroup) && resourceMatches(rule, combined, attrs.subresource) && resourceNameMatches(rule, attrs.name);
}

/** Upstream's RulesAllow: some rule allows the request. */
export function rulesAllow(attrs: Attributes, rules: readonly PolicyRule[]): boolean {
  const combined = combinedResource(attrs);
  for (const r of rules) if (ruleAllows(attrs, r, combined)) return true;
  return false;
}
