/**
 * The RBAC objects in memory, shaped for the question every request asks: "which bindings name
 * this user or one of its groups, cluster-wide and in this namespace?". Bindings are indexed per
 * subject (user name — ServiceAccount subjects as their `system:serviceaccount:<ns>:<name>` user —
 * and group name) and per namespace, so a request looks at its own bindings only, never at all of
 * them. Roles are looked up when a binding is visited, so a changed role counts at once.
 * Fed with every add, update and delete of Roles, ClusterRoles, RoleBindings and ClusterRoleBindings.
 */
import type { Authorization, PolicyRule } from '../../../machinery/authorization.js';
import type { UserInfo } from '../../../machinery/user.js';
import { goQuote as q } from '../authorizer.js';

export type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';

export interface Subject {
  kind: string;
  name: string;
  namespace: string;
  /** A ServiceAccount subject's user name (namespace defaulted to the binding's); '' when it can match nobody. */
  serviceAccountUser: string;
}

export interface RoleRef {
  kind: string;
  name: string;
  apiGroup: string;
}

export interface IndexedBinding {
  readonly kind: 'RoleBinding' | 'ClusterRoleBinding';
  readonly name: string;
  /** '' for a ClusterRoleBinding. */
  readonly namespace: string;
  readonly roleRef: RoleRef;
  readonly subjects: readonly Subject[];
  /** What the authorizer answers when a request is allowed through a subject (by index), built on first use. */
  readonly allowances: (Authorization | undefined)[];
}

/**
 * Visits each binding that applies to a user once, with the index of its first subject that
 * applies (upstream's appliesTo); returns false to stop.
 */
export type BindingVisitor = (binding: IndexedBinding, subjectIndex: number) => boolean;

const SA_PREFIX = 'system:serviceaccount:';

/** Upstream's ServiceAccount user name. */
export function serviceAccountUser(namespace: string, name: string): string {
  return `${SA_PREFIX}${namespace}:${name}`;
}

function strs(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function rec(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** A stored rule as the matchers read it (absent lists as empty). */
export function policyRuleOf(raw: unknown): PolicyRule {
  const r = rec(raw);
  return {
    verbs: strs(r.verbs),
    apiGroups: strs(r.apiGroups),
    resources: strs(r.resources),
    resourceNames: strs(r.resourceNames),
    nonResourceURLs: strs(r.nonResourceURLs),
  };
}

/** Bindings of one scope (the cluster, or one namespace), by name and by subject. */
class BindingScope {
  readonly byName = new Map<string, IndexedBinding>();
  readonly byUser = new Map<string, IndexedBinding[]>();
  readonly byGroup = new Map<string, IndexedBinding[]>();

  put(b: IndexedBinding): void {
    this.remove(b.name);
    this.byName.set(b.name, b);
    forEachKey(b, (users, key) => {
      const map = users ? this.byUser : this.byGroup;
      const bucket = map.get(key);
      if (bucket === undefined) map.set(key, [b]);
      else if (!bucket.includes(b)) bucket.push(b);
    });
  }

  remove(name: string): void {
    const b = this.byName.get(name);
    if (b === undefined) return;
    this.byName.delete(name);
    forEachKey(b, (users, key) => {
      const map = users ? this.byUser : this.byGroup;
      const bucket = map.get(key);
      if (bucket === undefined) return;
      const i = bucket.indexOf(b);
      if (i >= 0) bucket.splice(i, 1);
      if (bucket.length === 0) map.delete(key);
    });
  }

  get empty(): boolean {
    return this.byName.size === 0;
  }
}

/** The user names and group names a binding's subjects can match. */
function forEachKey(b: IndexedBinding, fn: (users: boolean, key: string) => void): void {
  for (const s of b.subjects) {
    if (s.kind === 'User') fn(true, s.name);
    else if (s.kind === 'Group') fn(false, s.name);
    else if (s.kind === 'ServiceAccount' && s.serviceAccountUser !== '') fn(true, s.serviceAccountUser);
  }
}

/** Upstream's appliesToUser. */
function applies(s: Subject, user: UserInfo): boolean {
  switch (s.kind) {
    case 'User':
      return s.name === user.name;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount':
      return s.serviceAccountUser !== '' && s.serviceAccountUser === user.name;
    default:
      return false;
  }
}

/** Upstream's appliesTo: the index of the first subject naming the user, or -1. */
function firstApplying(b: IndexedBinding, user: UserInfo): number {
  for (let i = 0; i < b.subjects.length; i++) if (applies(b.subjects[i], user)) return i;
  return -1;
}

export class PolicyIndex {
  private readonly clusterRoles = new Map<string, PolicyRule[]>();
  private readonly roles = new Map<string, Map<string, PolicyRule[]>>();
  private readonly clusterBindings = new BindingScope();
  private readonly namespaceBindings = new Map<string, BindingScope>();

  /** Adds or replaces one object from its served JSON form. */
  put(kind: RbacKind, obj: unknown): void {
    const o = rec(obj);
    const meta = rec(o.metadata);
    const name = str(meta.name);
    const namespace = str(meta.namespace);
    switch (kind) {
      case 'ClusterRole':
        this.clusterRoles.set(name, Array.isArray(o.rules) ? o.rules.map(policyRuleOf) : []);
        return;
      case 'Role': {
        let inNs = this.roles.get(namespace);
        if (inNs === undefined) this.roles.set(namespace, (inNs = new Map()));
        inNs.set(name, Array.isArray(o.rules) ? o.rules.map(policyRuleOf) : []);
        return;
      }
      case 'ClusterRoleBinding':
        this.clusterBindings.put(bindingOf(kind, name, '', o));
        return;
      case 'RoleBinding': {
        let scope = this.namespaceBindings.get(namespace);
        if (scope === undefined) this.namespaceBindings.set(namespace, (scope = new BindingScope()));
        scope.put(bindingOf(kind, name, namespace, o));
        return;
      }
    }
  }

  /** Removes one object (namespace '' for cluster-scoped kinds). */
  delete(kind: RbacKind, namespace: string, name: string): void {
    switch (kind) {
      case 'ClusterRole':
        this.clusterRoles.delete(name);
        return;
      case 'Role': {
        const inNs = this.roles.get(namespace);
        inNs?.delete(name);
        if (inNs?.size === 0) this.roles.delete(namespace);
        return;
      }
      case 'ClusterRoleBinding':
        this.clusterBindings.remove(name);
        return;
      case 'RoleBinding': {
        const scope = this.namespaceBindings.get(namespace);
        scope?.remove(name);
        if (scope?.empty) this.namespaceBindings.delete(namespace);
        return;
      }
    }
  }

  /** Forgets every object of a kind (before reloading them all). */
  clear(kind: RbacKind): void {
    switch (kind) {
      case 'ClusterRole':
        this.clusterRoles.clear();
        return;
      case 'Role':
        this.roles.clear();
        return;
      case 'ClusterRoleBinding':
        for (const name of [...this.clusterBindings.byName.keys()]) this.clusterBindings.remove(name);
        return;
      case 'RoleBinding':
        this.namespaceBindings.clear();
        return;
    }
  }

  /** The rules of a role reference, or undefined when the role does not exist or the kind is unknown. */
  roleRules(ref: RoleRef, bindingNamespace: string): readonly PolicyRule[] | undefined {
    if (ref.kind === 'ClusterRole') return this.clusterRoles.get(ref.name);
    if (ref.kind === 'Role') return this.roles.get(bindingNamespace)?.get(ref.name);
    return undefined;
  }

  /**
   * Upstream's VisitRulesFor order: ClusterRoleBindings, then RoleBindings of `namespace` (none
   * when it is ''). Only the buckets of the user's name and its groups are read; a binding found
   * through several of them is visited from the bucket of its first applying subject only.
   */
  visitBindings(user: UserInfo, namespace: string, visit: BindingVisitor): void {
    if (!visitScope(this.clusterBindings, user, visit)) return;
    if (namespace === '') return;
    const scope = this.namespaceBindings.get(namespace);
    if (scope !== undefined) visitScope(scope, user, visit);
  }

  /** How many bindings are indexed (cluster and namespaced). */
  get bindingCount(): number {
    let n = this.clusterBindings.byName.size;
    for (const s of this.namespaceBindings.values()) n += s.byName.size;
    return n;
  }
}

function visitScope(scope: BindingScope, user: UserInfo, visit: BindingVisitor): boolean {
  const own = scope.byUser.get(user.name);
  if (own !== undefined) {
    for (const b of own) {
      const i = firstApplying(b, user);
      if (i < 0) continue;
      const kind = b.subjects[i].kind;
      if ((kind === 'User' || kind === 'ServiceAccount') && !visit(b, i)) return false;
    }
  }
  const groups = user.groups;
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g];
    // A group listed twice is one membership.
    if (groups.indexOf(group) !== g) continue;
    const bucket = scope.byGroup.get(group);
    if (bucket === undefined) continue;
    for (const b of bucket) {
      const i = firstApplying(b, user);
      if (i < 0) continue;
      const s = b.subjects[i];
      if (s.kind === 'Group' && s.name === group && !visit(b, i)) return false;
    }
  }
  return true;
}

function bindingOf(kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, namespace: string, o: Record<string, unknown>): IndexedBinding {
  const ref = rec(o.roleRef);
  const subjects = Array.isArray(o.subjects)
    ? o.subjects.map((raw): Subject => {
        const s = rec(raw);
        const sKind = str(s.kind);
        const sName = str(s.name);
        const sNamespace = str(s.namespace);
        // Upstream: a ServiceAccount subject without a namespace means the binding's own
        // (none for a ClusterRoleBinding, where it then matches nobody).
        const saNamespace = sNamespace !== '' ? sNamespace : namespace;
        return {
          kind: sKind,
          name: sName,
          namespace: sNamespace,
          serviceAccountUser: sKind === 'ServiceAccount' && saNamespace !== '' ? serviceAccountUser(saNamespace, sName) : '',
        };
      })
    : [];
  return {
    kind,
    name,
    namespace,
    roleRef: { kind: str(ref.kind), name: str(ref.name), apiGroup: str(ref.apiGroup) },
    subjects,
    allowances: new Array(subjects.length),
  };
}

/**
 * Upstream's describers: `ClusterRoleBinding "b" of ClusterRole "r" to User "u"`,
 * `RoleBinding "b/ns" of Role "r" to ServiceAccount "sa/ns"`.
 */
export function describeBinding(b: IndexedBinding, subjectIndex: number): string {
  const s = b.subjects[subjectIndex];
  const subject = s.kind === 'ServiceAccount' ? `${s.kind} ${q(`${s.name}/${s.namespace !== '' ? s.namespace : b.namespace}`)}` : `${s.kind} ${q(s.name)}`;
  const name = b.kind === 'RoleBinding' ? `${b.name}/${b.namespace}` : b.name;
  return `${b.kind} ${q(name)} of ${b.roleRef.kind} ${q(b.roleRef.name)} to ${subject}`;
}
