/**
 * The collector's view of the API's types, from discovery (upstream's GetDeletableResources
 * plus its REST mapper): the resources to watch (every preferred-version resource that can be
 * listed, watched and deleted) and, for every served version, kind → resource, so an owner
 * reference's apiVersion/kind can be looked up where it lives.
 */
import type { RestClient } from '../../client/rest-client.js';

export interface ResourceType {
  /** `/api/v1` or `/apis/<group>/<version>` */
  basePath: string;
  apiVersion: string;
  resource: string;
  kind: string;
  namespaced: boolean;
}

export interface ResourceCatalog {
  /** What to watch: one entry per group and resource, at the group's preferred version. */
  watched: ResourceType[];
  /** `<apiVersion>/<kind>` → type, for every served version. */
  byKind: Map<string, ResourceType>;
}

interface APIResource {
  name: string;
  kind: string;
  namespaced: boolean;
  verbs?: string[];
}

interface GroupList {
  groups?: { name: string; versions: { groupVersion: string }[]; preferredVersion?: { groupVersion: string } }[];
}

export function kindKey(apiVersion: string, kind: string): string {
  return `${apiVersion}/${kind}`;
}

/** The path of one object of this type. */
export function objectPath(t: ResourceType, namespace: string | undefined, name: string): string {
  const ns = t.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${t.basePath}${ns}/${t.resource}/${encodeURIComponent(name)}`;
}

/** Reads discovery; throws when the server cannot answer (the caller keeps its previous view). */
export async function discoverResources(client: RestClient): Promise<ResourceCatalog> {
  const versions: { groupVersion: string; preferred: boolean }[] = [{ groupVersion: 'v1', preferred: true }];
  const groups = await client.expect<GroupList>('GET', '/apis');
  for (const g of groups.groups ?? []) {
    const preferred = g.preferredVersion?.groupVersion ?? g.versions[0]?.groupVersion;
    for (const v of g.versions) versions.push({ groupVersion: v.groupVersion, preferred: v.groupVersion === preferred });
  }
  const lists = await Promise.all(
    versions.map(async (v) => {
      const basePath = v.groupVersion === 'v1' ? '/api/v1' : `/apis/${v.groupVersion}`;
      // A version that fails (an aggregated API that is down) is left out, as upstream's partial discovery.
      const res = await client.request<{ resources?: APIResource[] }>('GET', basePath);
      return { ...v, basePath, resources: res.status === 200 ? (res.body.resources ?? []) : [] };
    }),
  );
  const watched: ResourceType[] = [];
  const byKind = new Map<string, ResourceType>();
  for (const l of lists) {
    for (const r of l.resources) {
      if (r.name.includes('/')) continue;
      // Upstream's collector ignores events (core and events group): they are many, short-lived and never owners.
      if (r.name === 'events' && (l.groupVersion === 'v1' || l.groupVersion.startsWith('events.'))) continue;
      const t: ResourceType = { basePath: l.basePath, apiVersion: l.groupVersion, resource: r.name, kind: r.kind, namespaced: r.namespaced };
      if (!byKind.has(kindKey(t.apiVersion, t.kind))) byKind.set(kindKey(t.apiVersion, t.kind), t);
      const verbs = new Set(r.verbs ?? []);
      if (l.preferred && verbs.has('delete') && verbs.has('list') && verbs.has('watch')) watched.push(t);
    }
  }
  return { watched, byKind };
}
