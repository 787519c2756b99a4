/**
 * FlowSchema matching (upstream's apf_controller Match and match.go): schemas in order of
 * matchingPrecedence then name; the first whose rules match the request's user and target wins.
 * Each schema is compiled once, when the configuration changes, into Sets and closures, so a
 * request pays a few Set lookups per schema tried and never reads the stored objects.
 */
import { isPlainObject, metaOf, type Obj } from '../../machinery/object.js';
import type { UserInfo } from '../../machinery/user.js';
import type { RequestInfo } from '../request-info.js';

const WILDCARD = '*';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** What classification needs of a FlowSchema, compiled. */
export interface CompiledFlowSchema {
  name: string;
  uid: string;
  matchingPrecedence: number;
  priorityLevel: string;
  distinguisher: 'ByUser' | 'ByNamespace' | undefined;
  matches(user: UserInfo, info: RequestInfo): boolean;
  /**
   * What a request of this user must be for the schema to match it (its rules whose subjects
   * name the user), or undefined when no rule names the user: lets a user's candidates be
   * worked out once and only targets be checked per request.
   */
  targetsFor(user: UserInfo): Predicate<RequestInfo> | undefined;
}

export type Predicate<T> = (value: T) => boolean;

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

function records(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter(isPlainObject) : [];
}

/**
 * Upstream's containsString: the wildcard matches everything only when it is the list's sole
 * member (validation keeps it so); otherwise membership.
 */
function containsString(list: string[]): Predicate<string> {
  if (list.length === 1 && list[0] === WILDCARD) return () => true;
  const set = new Set(list);
  return (x) => set.has(x);
}

/** Upstream's nonResourceURLs matching: `*`, the exact path, or a `/prefix/*` (or `/prefix/`) pattern. */
function nonResourceURLs(urls: string[]): Predicate<string> {
  if (urls.includes(WILDCARD)) return () => true;
  const exact = new Set(urls);
  const prefixes = urls.map((u) => {
    const p = u.endsWith(WILDCARD) ? u.slice(0, -1) : u;
    return p.endsWith('/') ? p : `${p}/`;
  });
  return (path) => exact.has(path) || prefixes.some((p) => path.startsWith(p));
}

/** Whether the user is one of the subjects (User, Group, ServiceAccount; `*` names every one). */
function subjectsMatcher(subjects: Record<string, unknown>[]): Predicate<UserInfo> {
  const userNames = new Set<string>();
  const groupNames = new Set<string>();
  // Service accounts as upstream's username `system:serviceaccount:<ns>:<name>`; `*` names any in the namespace.
  const accountNames = new Set<string>();
  const accountNamespaces = new Set<string>();
  let everyUser = false;
  let everyGroup = false;
  for (const s of subjects) {
    const kind = s.kind;
    if (kind === 'User') {
      const name = String((s.user as { name?: unknown } | undefined)?.name ?? '');
      if (name === WILDCARD) everyUser = true;
      else userNames.add(name);
    } else if (kind === 'Group') {
      const name = String((s.group as { name?: unknown } | undefined)?.name ?? '');
      if (name === WILDCARD) everyGroup = true;
      else groupNames.add(name);
    } else if (kind === 'ServiceAccount') {
      const sa = (s.serviceAccount ?? {}) as { name?: unknown; namespace?: unknown };
      const namespace = String(sa.namespace ?? '');
      if (sa.name === WILDCARD) accountNamespaces.add(namespace);
      else accountNames.add(`${SERVICE_ACCOUNT_PREFIX}${namespace}:${String(sa.name ?? '')}`);
    }
  }
  if (everyUser || everyGroup) return () => true;
  return (user) => {
    if (userNames.has(user.name) || accountNames.has(user.name)) return true;
    if (groupNames.size > 0) for (const g of user.groups) if (groupNames.has(g)) return true;
    if (accountNamespaces.size > 0 && user.name.startsWith(SERVICE_ACCOUNT_PREFIX)) {
      const rest = user.name.slice(SERVICE_ACCOUNT_PREFIX.length);
      const colon = rest.indexOf(':');
      if (colon > 0 && accountNamespaces.has(rest.slice(0, colon))) return true;
    }
    return false;
  };
}

/** A resourceRule: verb, `resource[/subresource]`, apiGroup, and namespace (or clusterScope for cluster-scoped requests). */
function resourceRuleMatcher(rule: Record<string, unknown>): Predicate<RequestInfo> {
  const verbs = containsString(strings(rule.verbs));
  const resources = containsString(strings(rule.resources));
  const groups = containsString(strings(rule.apiGroups));
  const namespaces = containsString(strings(rule.namespaces));
  const clusterScope = rule.clusterScope === true;
  return (info) =>
    verbs(info.verb) &&
    resources(info.subresource === '' ? info.resource : `${info.resource}/${info.subresource}`) &&
    groups(info.apiGroup) &&
    (info.namespace === '' ? clusterScope : namespaces(info.namespace));
}

function nonResourceRuleMatcher(rule: Record<string, unknown>): Predicate<RequestInfo> {
  const verbs = containsString(strings(rule.verbs));
  const urls = nonResourceURLs(strings(rule.nonResourceURLs));
  return (info) => verbs(info.verb) && urls(info.path);
}

/** Compiles one stored FlowSchema (v1beta2 shape). */
export function compileFlowSchema(fs: Obj): CompiledFlowSchema {
  const meta = metaOf(fs);
  const spec = isPlainObject(fs.spec) ? fs.spec : {};
  const rules = records(spec.rules).map((r) => {
    const resource = records(r.resourceRules).map(resourceRuleMatcher);
    const nonResource = records(r.nonResourceRules).map(nonResourceRuleMatcher);
    const targets: Predicate<RequestInfo> = (info) => (info.isResourceRequest ? resource.some((m) => m(info)) : nonResource.some((m) => m(info)));
    return { subjects: subjectsMatcher(records(r.subjects)), targets };
  });
  const dm = isPlainObject(spec.distinguisherMethod) ? spec.distinguisherMethod.type : undefined;
  const precedence = spec.matchingPrecedence;
  return {
    name: meta.name ?? '',
    uid: meta.uid ?? '',
    // Upstream defaults a missing matchingPrecedence to 1000.
    matchingPrecedence: typeof precedence === 'number' ? precedence : 1000,
    priorityLevel: String((spec.priorityLevelConfiguration as { name?: unknown } | undefined)?.name ?? ''),
    distinguisher: dm === 'ByUser' || dm === 'ByNamespace' ? dm : undefined,
    matches: (user, info) => rules.some((r) => r.subjects(user) && r.targets(info)),
    targetsFor(user) {
      const mine = rules.filter((r) => r.subjects(user)).map((r) => r.targets);
      if (mine.length === 0) return undefined;
      return mine.length === 1 ? mine[0] : (info) => mine.some((t) => t(info));
    },
  };
}

/** Upstream's order: lower matchingPrecedence first, ties by name. */
export function byPrecedence(a: CompiledFlowSchema, b: CompiledFlowSchema): number {
  return a.matchingPrecedence - b.matchingPrecedence || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** The flow within the schema: the user's name, the request's namespace, or one flow for all. */
export function flowDistinguisher(fs: CompiledFlowSchema, user: UserInfo, info: RequestInfo): string {
  if (fs.distinguisher === 'ByUser') return user.name;
  if (fs.distinguisher === 'ByNamespace') return info.namespace;
  return '';
}
