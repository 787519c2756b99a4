/**
 * Remote group versions as discovery lists them (upstream's aggregator discovery): groups by
 * their highest groupPriorityMinimum, versions by versionPriority then kube-aware version
 * order; in aggregated discovery each version carries the resources its server listed at the
 * last check, converted from its APIResourceList, `Stale` once a later check failed. A version
 * never fetched is left out of aggregated discovery; the legacy lists name it regardless, as
 * upstream's do (clients then report the group as unavailable).
 */
import { compareKubeVersions } from '../../registry/registry.js';
import { list, rec, str, strings } from '../../machinery/fields.js';
import type { RemoteGroupVersion } from './table.js';

export interface RemoteGroup {
  group: string;
  /** Preferred first. */
  versions: string[];
  /** Aggregated discovery's APIVersionDiscovery entries of the versions fetched. */
  aggregated: Record<string, unknown>[];
}

/** APIResourceList resources as APIResourceDiscovery entries: subresources (`a/b`) folded into their resource. */
function discoveryResources(group: string, version: string, resources: Record<string, unknown>[]): Record<string, unknown>[] {
  const out = new Map<string, Record<string, unknown>>();
  const kindOf = (r: Record<string, unknown>) => ({ group: str(r.group) || group, version: str(r.version) || version, kind: str(r.kind) });
  for (const r of resources) {
    const name = str(r.name);
    if (name === '' || name.includes('/')) continue;
    const d: Record<string, unknown> = {
      resource: name,
      responseKind: kindOf(r),
      scope: r.namespaced === true ? 'Namespaced' : 'Cluster',
      singularResource: str(r.singularName),
      verbs: strings(r.verbs),
    };
    if (list(r.shortNames).length) d.shortNames = strings(r.shortNames);
    if (list(r.categories).length) d.categories = strings(r.categories);
    out.set(name, d);
  }
  for (const r of resources) {
    const [parent, sub, ...rest] = str(r.name).split('/');
    const owner = out.get(parent);
    if (owner === undefined || sub === undefined || rest.length > 0) continue;
    const subs = (owner.subresources ??= []) as Record<string, unknown>[];
    subs.push({ subresource: sub, responseKind: kindOf(rec(r)), verbs: strings(r.verbs) });
  }
  return [...out.values()];
}

/** The remote groups in discovery order. */
export function remoteGroups(gvs: readonly RemoteGroupVersion[]): RemoteGroup[] {
  const byGroup = new Map<string, RemoteGroupVersion[]>();
  for (const gv of gvs) byGroup.set(gv.group, [...(byGroup.get(gv.group) ?? []), gv]);
  const priority = (vs: RemoteGroupVersion[]) => Math.max(...vs.map((v) => v.groupPriorityMinimum));
  return [...byGroup.entries()]
    .sort(([ga, a], [gb, b]) => priority(b) - priority(a) || (ga < gb ? -1 : ga > gb ? 1 : 0))
    .map(([group, vs]) => {
      const sorted = [...vs].sort((a, b) => b.versionPriority - a.versionPriority || compareKubeVersions(a.version, b.version));
      return {
        group,
        versions: sorted.map((v) => v.version),
        aggregated: sorted
          .filter((v) => v.resources !== undefined)
          .map((v) => ({ version: v.version, resources: discoveryResources(group, v.version, v.resources ?? []), freshness: v.stale ? 'Stale' : 'Current' })),
      };
    });
}
