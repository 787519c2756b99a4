/**
 * The registry of every served resource under one brand: resolves the catalogue once and
 * answers "which store serves group/version/resource" in one map lookup per request.
 */
import type { ResourceDefinition } from '../api/types.js';
import type { Brand } from '../machinery/brand.js';
import type { Store } from '../storage/interface.js';
import type { GenericStore } from './generic-store.js';
import type { CacherOptions } from '../storage/cacher/cacher.js';
import { resolveResource, type ResourceInfo } from './resource-info.js';
import { type StorageOptions, storeFor } from './stores.js';

export interface GroupVersions {
  group: string;
  /** Versions served, preferred first. */
  versions: string[];
}

export class Registry {
  private readonly byPath = new Map<string, GenericStore>();
  readonly resources: ResourceInfo[];
  readonly groups: GroupVersions[];

  constructor(
    defs: readonly ResourceDefinition[],
    readonly brand: Brand,
    readonly store: Store,
    cacheOptions: CacherOptions = {},
    storageOptions: StorageOptions = {},
  ) {
    this.resources = defs.map((d) => resolveResource(d, brand));
    const groups = new Map<string, Set<string>>();
    const prefixes = new Map<string, ResourceInfo>();
    for (const info of this.resources) {
      // Two definitions may share a key prefix only when one is a converted view of the other.
      const owner = prefixes.get(info.keyPrefix);
      if (owner && !owner.conversion && !info.conversion) throw new Error(`storage prefix ${info.keyPrefix} claimed by ${owner.kind} and ${info.kind}`);
      prefixes.set(info.keyPrefix, info);
      this.byPath.set(`${info.group}/${info.version}/${info.plural}`, storeFor(info, store, brand, cacheOptions, storageOptions));
      if (!groups.has(info.group)) groups.set(info.group, new Set());
      groups.get(info.group)?.add(info.version);
    }
    this.groups = [...groups].map(([group, versions]) => ({ group, versions: sortVersions([...versions]) }));
  }

  /** Fills every watch cache from the store and starts following it. */
  async startCaches(): Promise<void> {
    await Promise.all([...this.byPath.values()].map((s) => s.startCache()));
  }

  stopCaches(): void {
    for (const s of this.byPath.values()) s.stopCache();
  }

  /** The store serving a resource, or undefined. */
  lookup(group: string, version: string, resource: string): GenericStore | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  /** The store of a core-or-group resource at its served version (first match). */
  byResource(group: string, resource: string): GenericStore | undefined {
    const info = this.resources.find((r) => r.group === group && r.plural === resource);
    return info ? this.lookup(info.group, info.version, info.plural) : undefined;
  }

  /** Resources of one group version, in catalogue order. */
  resourcesOf(group: string, version: string): ResourceInfo[] {
    return this.resources.filter((r) => r.group === group && r.version === version);
  }
}

/** Kubernetes version priority: GA > beta > alpha, higher numbers first. */
export function versionPriority(v: string): number[] {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
  if (!m) return [0, 0, 0];
  const level = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
  return [level, Number(m[1]), Number(m[3] ?? 0)];
}

function sortVersions(versions: string[]): string[] {
  return versions.sort((a, b) => {
    const pa = versionPriority(a);
    const pb = versionPriority(b);
    for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pb[i] - pa[i];
    return a.localeCompare(b);
  });
}
