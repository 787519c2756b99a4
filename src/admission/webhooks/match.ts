/**
 * Whether a webhook is called for a request, as upstream's webhook rules and object matchers
 * decide: a rule matches the operation, group, version, resource (with `*`, `*\/*`, `pods/*` and
 * `*\/status` forms) and scope; matchPolicy Equivalent also accepts the resource at another
 * version its group serves; then the namespace and object selectors.
 */
import type { Labels } from '../../machinery/label-selector.js';
import { rec, stringMap } from '../../machinery/fields.js';
import type { AdmissionAttributes } from '../admission.js';
import type { Hook, HookRule } from './hook.js';

const has = (list: readonly string[], v: string): boolean => list.includes('*') || list.includes(v);

function resourceMatches(rule: HookRule, resource: string, subresource: string): boolean {
  const requested = subresource === '' ? resource : `${resource}/${subresource}`;
  for (const r of rule.resources) {
    if (r === '*/*' || r === requested) return true;
    const slash = r.indexOf('/');
    const [res, sub] = slash < 0 ? [r, ''] : [r.slice(0, slash), r.slice(slash + 1)];
    // `*` is every resource without a subresource; `*\/x` subresource x of any resource; `r/*` any of r's.
    if ((res === '*' || res === resource) && (sub === '*' ? subresource !== '' : sub === subresource)) return true;
  }
  return false;
}

/** Upstream's scope rule: the Namespace object itself counts as cluster-scoped. */
function scopeMatches(rule: HookRule, a: AdmissionAttributes): boolean {
  if (rule.scope === '*') return true;
  const clusterScoped = !a.resource.namespaced || a.namespace === '';
  return rule.scope === 'Cluster' ? clusterScoped : !clusterScoped;
}

/** The versions at which a hook may see a request's resource (Equivalent: every served version). */
export type ServedVersions = (group: string, resource: string) => readonly string[];

/**
 * The version at which the hook sees the request, or undefined when no rule matches: the
 * request's own version when a rule names it, else (matchPolicy Equivalent) the first other
 * served version a rule names, as upstream's ShouldCallHook tries the equivalent resources.
 */
export function matchedVersion(hook: Hook, a: AdmissionAttributes, served: ServedVersions): string | undefined {
  const { group, version, plural } = a.resource;
  const rulesAt = (v: string) =>
    hook.rules.some(
      (rule) =>
        has(rule.operations, a.operation) &&
        has(rule.apiGroups, group) &&
        has(rule.apiVersions, v) &&
        resourceMatches(rule, plural, a.subresource) &&
        scopeMatches(rule, a),
    );
  if (rulesAt(version)) return version;
  if (hook.matchPolicy !== 'Equivalent') return undefined;
  return served(group, plural).find((v) => v !== version && rulesAt(v));
}

/** Labels of the namespace a request is in; undefined when there is no such namespace. */
export type NamespaceLabels = (namespace: string) => Promise<Labels | undefined>;

function isNamespaceObject(a: AdmissionAttributes): boolean {
  return a.resource.group === '' && a.resource.plural === 'namespaces';
}

/** The object the selectors see: for a DELETE, the object deleted. */
const labelsOf = (o: unknown): Labels => stringMap(rec(rec(o).metadata).labels);

/**
 * Upstream's namespace matcher: cluster-scoped requests (other than for a Namespace) always
 * match; a Namespace is matched on its own labels; others on their namespace's labels.
 */
export async function namespaceMatches(hook: Hook, a: AdmissionAttributes, namespaceLabels: NamespaceLabels): Promise<boolean> {
  if (hook.namespaceSelector.isEverything) return true;
  if (isNamespaceObject(a)) return hook.namespaceSelector(labelsOf(a.operation === 'DELETE' ? (a.oldObject ?? a.object) : a.object));
  if (a.namespace === '' || !a.resource.namespaced) return true;
  return hook.namespaceSelector((await namespaceLabels(a.namespace)) ?? {});
}

/** Upstream's object matcher: the new or the old object's labels match. */
export function objectMatches(hook: Hook, a: AdmissionAttributes): boolean {
  if (hook.objectSelector.isEverything) return true;
  const current = a.operation === 'DELETE' ? undefined : a.object;
  return (current !== undefined && hook.objectSelector(labelsOf(current))) || (a.oldObject !== undefined && hook.objectSelector(labelsOf(a.oldObject)));
}
