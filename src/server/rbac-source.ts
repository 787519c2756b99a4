/**
 * Feeds the RBAC index from the registry's watch caches of Roles, ClusterRoles, RoleBindings
 * and ClusterRoleBindings: what they hold now, then every change as the caches apply it (so
 * the index follows a write within the cache's own delay, without a watch connection).
 */
import type { RbacKind } from '../auth/authz/rbac/policy-index.js';
import { PolicyIndex } from '../auth/authz/rbac/policy-index.js';
import { rbacGroup } from '../api/rbac/rbac-validation.js';
import type { Brand } from '../machinery/brand.js';
import type { Registry } from '../registry/registry.js';
import type { CacheEntry } from '../storage/cacher/types.js';

const KINDS: readonly [string, RbacKind][] = [
  ['clusterroles', 'ClusterRole'],
  ['roles', 'Role'],
  ['clusterrolebindings', 'ClusterRoleBinding'],
  ['rolebindings', 'RoleBinding'],
];

export interface RbacSource {
  readonly index: PolicyIndex;
  /** Loads what the caches hold and follows them; resolves when loaded. */
  start(): Promise<void>;
  stop(): void;
}

/** Feeds `index` (a fresh one when not given: the escalation checks may be built over it before the registry exists). */
export function rbacSource(registry: Registry, brand: Brand, index: PolicyIndex = new PolicyIndex()): RbacSource {
  const group = rbacGroup(brand);
  let stops: (() => void)[] = [];
  let started: Promise<void> | undefined;
  return {
    index,
    start() {
      started ??= (async () => {
        for (const [resource, kind] of KINDS) {
          const cache = registry.byResource(group, resource)?.cache;
          if (cache === undefined) throw new Error(`RBAC authorization needs ${resource}.${group}, which is not served`);
          // Listening first and loading in the same tick: no event falls between the two.
          let live = true;
          stops.push(
            cache.listen((event) => {
              if (!live) return false;
              if (event.type === 'DELETED') index.delete(kind, ...nameOf(event.entry));
              else index.put(kind, parse(event.entry));
              return true;
            }),
          );
          stops.push(() => {
            live = false;
          });
          // A cache that lost its store watch lists again: objects deleted meanwhile must go.
          const reload = () => {
            index.clear(kind);
            for (const entry of cache.list()) index.put(kind, parse(entry));
          };
          stops.push(cache.onRelist(reload));
          reload();
        }
      })();
      return started;
    },
    stop() {
      for (const s of stops) s();
      stops = [];
    },
  };
}

function parse(entry: CacheEntry): unknown {
  return JSON.parse(entry.json.toString('utf8'));
}

/** The namespace and name of a deleted object, from its last state. */
function nameOf(entry: CacheEntry): [string, string] {
  const meta = (parse(entry) as { metadata?: { namespace?: unknown; name?: unknown } }).metadata ?? {};
  return [typeof meta.namespace === 'string' ? meta.namespace : '', typeof meta.name === 'string' ? meta.name : ''];
}
