/**
 * The clusterrole-aggregation controller (upstream pkg/controller/clusterroleaggregation): a
 * ClusterRole with `aggregationRule.clusterRoleSelectors` gets as `.rules` the de-duplicated
 * rules of every other ClusterRole any selector matches, selector by selector, roles by name,
 * in upstream's order. Any ClusterRole change re-syncs every aggregated role; a role is written
 * (server-side apply, field manager `clusterrole-aggregation-controller`, as upstream) only
 * when its rules differ. It talks to the API only through the REST client.
 */
import type { RestClient } from '../client/rest-client.js';
import { type ListWatch, listAndWatch } from '../client/list-watch.js';
import type { PolicyRule } from '../machinery/authorization.js';
import { type LabelMatcher, type LabelSelector, labelSelectorFromObject } from '../machinery/label-selector.js';

/** The fields of a ClusterRole the controller reads. */
export interface ClusterRoleObj {
  metadata: { name: string; labels?: Record<string, string> };
  aggregationRule?: { clusterRoleSelectors?: LabelSelector[] | null } | null;
  rules?: PolicyRule[] | null;
}

export interface ClusterRoleAggregationOptions {
  client: RestClient;
  /** The RBAC group version the server serves (`rbac.authorization.orch.io/v1`). */
  groupVersion: string;
  /** Delay before retrying a role whose write failed. */
  retryMs?: number;
}

/** Upstream's field manager of the aggregated rules. */
export const AGGREGATION_FIELD_MANAGER = 'clusterrole-aggregation-controller';

const RULE_LISTS = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

/** Semantic equality of rules, as upstream's equality.Semantic: an absent list equals an empty one. */
function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  for (const field of RULE_LISTS) {
    const x = a[field] ?? [];
    const y = b[field] ?? [];
    if (x.length !== y.length || x.some((v, i) => v !== y[i])) return false;
  }
  return true;
}

/** Semantic equality of rule lists, in order (what the controller compares before it writes). */
export function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((r, i) => sameRule(r, b[i] as PolicyRule));
}

/** Go's byte-wise string order (upstream sorts the matched roles by name). */
const byName = (a: ClusterRoleObj, b: ClusterRoleObj): number => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0);

/** The rules `aggregated` gets from `roles` (upstream's syncClusterRole); undefined when a selector is invalid. */
export function aggregatedRules(aggregated: ClusterRoleObj, roles: Iterable<ClusterRoleObj>): PolicyRule[] | undefined {
  const all = [...roles];
  const out: PolicyRule[] = [];
  for (const selector of aggregated.aggregationRule?.clusterRoleSelectors ?? []) {
    let matches: LabelMatcher;
    try {
      matches = labelSelectorFromObject(selector);
    } catch {
      return undefined;
    }
    const selected = all.filter((r) => r.metadata.name !== aggregated.metadata.name && matches(r.metadata.labels)).sort(byName);
    for (const role of selected) for (const rule of role.rules ?? []) if (!out.some((r) => sameRule(r, rule))) out.push(rule);
  }
  return out;
}

export class ClusterRoleAggregationController {
  private readonly roles = new Map<string, ClusterRoleObj>();
  private readonly queue = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private listWatch: ListWatch | undefined;
  private working = false;
  private stopped = false;

  constructor(private readonly opts: ClusterRoleAggregationOptions) {}

  private get collection(): string {
    return `/apis/${this.opts.groupVersion}/clusterroles`;
  }

  /** Starts the list-and-watch loop in the background. */
  start(): void {
    this.listWatch = listAndWatch<ClusterRoleObj>(this.opts.client, this.collection, {
      onList: (items) => {
        this.roles.clear();
        for (const r of items) this.roles.set(r.metadata.name, r);
        this.enqueueAggregated();
      },
      onEvent: (type, role) => {
        if (type === 'DELETED') this.roles.delete(role.metadata.name);
        else this.roles.set(role.metadata.name, role);
        this.enqueueAggregated();
      },
    });
  }

  stop(): void {
    this.stopped = true;
    this.listWatch?.stop();
    for (const t of this.timers) clearTimeout(t);
  }

  /** Any role may be selected by any aggregated role: every aggregated role is looked at again. */
  private enqueueAggregated(): void {
    for (const [name, role] of this.roles) if (role.aggregationRule) this.queue.add(name);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.working) return;
    this.working = true;
    try {
      while (this.queue.size > 0 && !this.stopped) {
        const name = this.queue.values().next().value as string;
        this.queue.delete(name);
        const done = await this.sync(name).catch(() => false);
        if (!done && !this.stopped) {
          const t = setTimeout(() => {
            this.timers.delete(t);
            this.queue.add(name);
            void this.drain();
          }, this.opts.retryMs ?? 1000);
          this.timers.add(t);
        }
      }
    } finally {
      this.working = false;
    }
  }

  /** Brings one aggregated role's rules up to date; false when the write failed (retried later). */
  private async sync(name: string): Promise<boolean> {
    const role = this.roles.get(name);
    if (!role?.aggregationRule) return true;
    const rules = aggregatedRules(role, this.roles.values());
    // An invalid selector cannot match until the role changes, which queues it again.
    if (rules === undefined || sameRules(rules, role.rules ?? [])) return true;
    const path = `${this.collection}/${encodeURIComponent(name)}`;
    const applied = await this.opts.client.request(
      'PATCH',
      `${path}?fieldManager=${AGGREGATION_FIELD_MANAGER}&force=true`,
      // No rules at all is an apply without the field: the manager gives up what it owned.
      { apiVersion: this.opts.groupVersion, kind: 'ClusterRole', metadata: { name }, ...(rules.length > 0 ? { rules } : {}) },
      'application/apply-patch+yaml',
    );
    if (applied.status === 200 || applied.status === 404) return true;
    if (applied.status !== 415) return false;
    // A server without server-side apply: update the whole object (upstream's fallback).
    const updated = await this.opts.client.request('PUT', path, { ...role, rules });
    return updated.status === 200 || updated.status === 404;
  }
}
