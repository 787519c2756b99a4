/**
 * Discovery documents: /api, /apis, /apis/<group>, /api/v1 and /apis/<group>/<version>, plus
 * aggregated discovery (apidiscovery v2 and v2beta1). All documents are built once at start-up
 * (and again after a registration change) and served as pre-serialized bytes.
 */
import type { Registry } from '../registry/registry.js';
import type { ResourceInfo } from '../registry/resource-info.js';
import type { Brand } from '../machinery/brand.js';
import { subresourceKind } from '../registry/subresources.js';
import type { Verb } from '../api/types.js';
import { storageVersionHash } from './storage-version-hash.js';
import type { RemoteGroupVersion } from './aggregator/table.js';
import { type RemoteGroup, remoteGroups } from './aggregator/remote-discovery.js';

/** The group versions other servers serve through the aggregator, and a counter of their changes. */
export interface RemoteDiscovery {
  readonly generation: number;
  groupVersions(): RemoteGroupVersion[];
}

const VERB_ORDER: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function verbsOf(info: ResourceInfo): string[] {
  return VERB_ORDER.filter((v) => info.verbs.has(v));
}

/** The declared subresources, alphabetical as upstream lists them; each answers with its own kind (a binding, a Binding). */
function subresourcesOf(
  info: ResourceInfo,
  brand: Brand,
): { name: string; verbs: string[]; kind?: string; groupVersion?: { group: string; version: string } }[] {
  return [...info.subresources]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((s) => ({
      name: s.name,
      verbs: VERB_ORDER.filter((v) => s.verbs.includes(v)),
      kind: subresourceKind(s, info.kind),
      // A subresource answering in another group says so (deployments/scale: autoscaling/v1 Scale).
      groupVersion: s.kindGroup ? { group: brand.group(s.kindGroup.groupStem, s.kindGroup.branded), version: s.kindGroup.version } : undefined,
    }));
}

/** An APIResource in Go struct order; `stored` is the resource whose storage it reads (none for reviews). */
function apiResource(info: ResourceInfo, stored: ResourceInfo | undefined, brand: Brand, storageVersionHashes: boolean): Record<string, unknown> {
  const r: Record<string, unknown> = {
    name: info.plural,
    singularName: info.def.singular,
    namespaced: info.namespaced,
    kind: info.kind,
    verbs: verbsOf(info),
  };
  if (info.def.shortNames?.length) r.shortNames = info.def.shortNames;
  if (info.def.categories?.length) r.categories = info.def.categories;
  if (!storageVersionHashes) return r;
  if (stored) r.storageVersionHash = storageVersionHash(stored.group, stored.version, stored.kind);
  else if (info.def.kindConversion && !info.def.virtual) {
    // The storage version itself switched off by --runtime-config: objects are still stored at it.
    const kc = info.def.kindConversion;
    r.storageVersionHash = storageVersionHash(brand.group(kc.groupStem, kc.branded), kc.storageVersion, kc.kind);
  }
  return r;
}

/** Each storage key prefix's owner: the definition stored there, not a converted view of it. */
function storageOwners(registry: Registry): Map<string, ResourceInfo> {
  const owners = new Map<string, ResourceInfo>();
  for (const g of registry.groups) {
    for (const v of g.versions) {
      for (const info of registry.resourcesOf(g.group, v)) if (!info.conversion && !info.def.virtual) owners.set(info.keyPrefix, info);
    }
  }
  return owners;
}

export interface DiscoveryDocuments {
  /** `/api` */
  legacyVersions: string;
  /** `/apis` */
  groupList: string;
  /** `/apis/<group>` by group */
  groups: Map<string, string>;
  /** `/api/v1`, `/apis/<group>/<version>` by path */
  resourceLists: Map<string, string>;
  /** aggregated `/api` and `/apis` by apidiscovery version ('v2' | 'v2beta1') */
  aggregated: Map<string, { legacy: string; apis: string }>;
}

/**
 * Every discovery document of a registry and of the aggregated servers, rebuilt on the first
 * read after either changes (a resource added or removed, an APIService or what its server lists).
 */
export function buildDiscovery(
  registry: Registry,
  brand: Brand,
  serverAddress: string,
  storageVersionHashes = true,
  remote?: () => RemoteDiscovery | undefined,
): DiscoveryDocuments {
  const remoteGeneration = () => remote?.()?.generation ?? 0;
  let generation = registry.generation;
  let seenRemote = remoteGeneration();
  const build = () => buildDocuments(registry, brand, serverAddress, storageVersionHashes, remoteGroups(remote?.()?.groupVersions() ?? []));
  let built = build();
  const current = (): DiscoveryDocuments => {
    if (generation !== registry.generation || seenRemote !== remoteGeneration()) {
      generation = registry.generation;
      seenRemote = remoteGeneration();
      built = build();
    }
    return built;
  };
  return {
    get legacyVersions() {
      return current().legacyVersions;
    },
    get groupList() {
      return current().groupList;
    },
    get groups() {
      return current().groups;
    },
    get resourceLists() {
      return current().resourceLists;
    },
    get aggregated() {
      return current().aggregated;
    },
  };
}

// storageVersionHashes: the StorageVersionHash gate (off: no resource names its hash).
function buildDocuments(registry: Registry, brand: Brand, serverAddress: string, storageVersionHashes: boolean, remote: RemoteGroup[]): DiscoveryDocuments {
  const legacyVersions = JSON.stringify({
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  });
  // Remote versions of a group served here come after its own; remote-only groups after every local group.
  const remoteByGroup = new Map(remote.map((r) => [r.group, r]));
  const local = registry.groups.filter((g) => g.group !== '');
  const localNames = new Set(local.map((g) => g.group));
  const named = [
    ...local.map((g) => {
      const r = remoteByGroup.get(g.group);
      return r ? { group: g.group, versions: [...g.versions, ...r.versions.filter((v) => !g.versions.includes(v))] } : g;
    }),
    ...remote.filter((r) => !localNames.has(r.group)),
  ];
  const groupEntry = (g: { group: string; versions: string[] }) => ({
    name: g.group,
    versions: g.versions.map((v) => ({ groupVersion: `${g.group}/${v}`, version: v })),
    preferredVersion: { groupVersion: `${g.group}/${g.versions[0]}`, version: g.versions[0] },
  });
  const groupList = JSON.stringify({ kind: 'APIGroupList', apiVersion: 'v1', groups: named.map(groupEntry) });
  const groups = new Map(named.map((g) => [g.group, JSON.stringify({ kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(g) })]));
  const resourceLists = new Map<string, string>();
  const owners = storageOwners(registry);
  for (const g of registry.groups) {
    for (const v of g.versions) {
      const resources: Record<string, unknown>[] = [];
      for (const info of registry.resourcesOf(g.group, v)) {
        resources.push(apiResource(info, info.def.virtual ? undefined : owners.get(info.keyPrefix), brand, storageVersionHashes));
        for (const sub of subresourcesOf(info, brand)) {
          resources.push({
            name: `${info.plural}/${sub.name}`,
            singularName: '',
            namespaced: info.namespaced,
            ...sub.groupVersion,
            kind: sub.kind ?? info.kind,
            verbs: sub.verbs,
          });
        }
      }
      const gv = g.group === '' ? v : `${g.group}/${v}`;
      const path = g.group === '' ? `/api/${v}` : `/apis/${g.group}/${v}`;
      resourceLists.set(path, JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv, resources }));
    }
  }
  const aggregated = new Map<string, { legacy: string; apis: string }>();
  for (const dv of ['v2', 'v2beta1']) {
    const doc = (items: unknown[]) => JSON.stringify({ kind: 'APIGroupDiscoveryList', apiVersion: `${brand.discoveryGroup}/${dv}`, metadata: {}, items });
    const item = (g: { group: string; versions: string[] }) => ({
      metadata: { name: g.group, creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v,
        freshness: 'Current',
        resources: registry.resourcesOf(g.group, v).map((info) => {
          const r: Record<string, unknown> = {
            resource: info.plural,
            responseKind: { group: info.group, version: v, kind: info.kind },
            scope: info.namespaced ? 'Namespaced' : 'Cluster',
            singularResource: info.def.singular,
            verbs: verbsOf(info),
          };
          if (info.def.shortNames?.length) r.shortNames = info.def.shortNames;
          if (info.def.categories?.length) r.categories = info.def.categories;
          const subs = subresourcesOf(info, brand);
          if (subs.length)
            r.subresources = subs.map((s) => ({
              subresource: s.name,
              responseKind: { group: s.groupVersion?.group ?? info.group, version: s.groupVersion?.version ?? v, kind: s.kind ?? info.kind },
              verbs: s.verbs,
            }));
          return r;
        }),
      })),
    });
    const core = registry.groups.find((g) => g.group === '');
    const apis = [
      ...local.map((g) => {
        const own = item(g);
        const r = remoteByGroup.get(g.group);
        return r ? { ...own, versions: [...own.versions, ...r.aggregated.filter((v) => !g.versions.includes(String(v.version)))] } : own;
      }),
      ...remote
        .filter((r) => !localNames.has(r.group) && r.aggregated.length > 0)
        .map((r) => ({ metadata: { name: r.group, creationTimestamp: null }, versions: r.aggregated })),
    ];
    aggregated.set(dv, { legacy: doc(core ? [item(core)] : []), apis: doc(apis) });
  }
  return { legacyVersions, groupList, groups, resourceLists, aggregated };
}
