/**
 * The registry of every served resource under one brand: resolves each definition once, builds
 * its store and capabilities (registration), and answers "what serves group/version/resource"
 * in one map lookup per request. Resources may be added and removed while the server runs
 * (custom resources): one call, after which routes, discovery and OpenAPI follow the change
 * (their builders watch `generation`).
 */
import type { ResourceDefinition } from '../api/types.js';
import type { Brand } from '../machinery/brand.js';
import type { Store } from '../storage/interface.js';
import type { GenericStore } from './generic-store.js';
import type { CacherOptions } from '../storage/cacher/cacher.js';
import { resolveResource, type ResourceInfo } from './resource-info.js';
import type { Capabilities } from './capabilities.js';
import { resourceCapabilities, subresourceCapabilities } from './rest.js';
import type { ReviewDeps } from './reviews.js';
import { type StorageOptions, storeFor } from './stores.js';
import type { TokenIssuer } from './token-request.js';

export interface GroupVersions {
  group: string;
  /** Versions served, preferred first. */
  versions: string[];
}

/** One registered resource: its resolved names, its store, and what it and each subresource serve. */
export interface ServedResource {
  readonly info: ResourceInfo;
  readonly store: GenericStore;
  readonly capabilities: Capabilities;
  /** By subresource name, for each subresource the definition declares. */
  readonly subresources: ReadonlyMap<string, Capabilities>;
}

/** What the registry's storages are built with: type-specific options (Services' ranges) and review dependencies. */
export interface RegistryDeps extends StorageOptions {
  /** Who review resources ask (the server's authorizer and token authenticators). */
  reviews?: ReviewDeps;
  /** Who signs service-account tokens (serviceaccounts/token). */
  tokens?: TokenIssuer;
}

export class Registry {
  private readonly byPath = new Map<string, ServedResource>();
  private cachesStarted = false;
  private listeners = new Set<() => void>();
  private derived: { resources: ResourceInfo[]; groups: GroupVersions[] } | undefined;
  /** Increases on every registration change; what is derived from the registry rebuilds when it moves. */
  generation = 0;

  constructor(
    defs: readonly ResourceDefinition[],
    readonly brand: Brand,
    readonly store: Store,
    private readonly cacheOptions: CacherOptions = {},
    private readonly deps: RegistryDeps = {},
  ) {
    for (const def of defs) this.add(def);
  }

  /** Every served resource, in registration order. */
  get resources(): ResourceInfo[] {
    return this.derive().resources;
  }

  /** Served groups and their versions, preferred version first. */
  get groups(): GroupVersions[] {
    return this.derive().groups;
  }

  private derive(): { resources: ResourceInfo[]; groups: GroupVersions[] } {
    if (this.derived) return this.derived;
    const resources = [...this.byPath.values()].map((s) => s.info);
    const groups = new Map<string, Set<string>>();
    for (const info of resources) {
      if (!groups.has(info.group)) groups.set(info.group, new Set());
      groups.get(info.group)?.add(info.version);
    }
    this.derived = { resources, groups: [...groups].map(([group, versions]) => ({ group, versions: sortVersions([...versions]) })) };
    return this.derived;
  }

  private add(def: ResourceDefinition): ServedResource {
    const info = resolveResource(def, this.brand);
    const path = `${info.group}/${info.version}/${info.plural}`;
    if (this.byPath.has(path)) throw new Error(`${path} is already registered`);
    for (const other of this.byPath.values()) {
      // Two definitions may share a key prefix only when one is a converted view of the other
      // (or nothing is stored: the versions of a review).
      if (other.info.keyPrefix === info.keyPrefix && !other.info.conversion && !info.conversion && !(info.def.virtual && other.info.def.virtual)) {
        throw new Error(`storage prefix ${info.keyPrefix} claimed by ${other.info.kind} and ${info.kind}`);
      }
    }
    const store = storeFor(info, this.store, this.brand, this.cacheOptions, this.deps);
    const deps = { stores: this, reviews: this.deps.reviews, tokens: this.deps.tokens };
    const served: ServedResource = {
      info,
      store,
      capabilities: resourceCapabilities(info, store, deps),
      subresources: new Map(info.subresources.map((sub) => [sub.name, subresourceCapabilities(info, sub, store, deps)])),
    };
    this.byPath.set(path, served);
    return served;
  }

  private changed(): void {
    this.derived = undefined;
    this.generation++;
    for (const l of this.listeners) l();
  }

  /**
   * Serves more resources while the server runs: their stores start (and their watch caches,
   * once the others' have), then routes, discovery and OpenAPI include them.
   */
  async register(...defs: ResourceDefinition[]): Promise<void> {
    const added: ServedResource[] = [];
    try {
      for (const d of defs) added.push(this.add(d));
    } catch (e) {
      // All or nothing: a refused definition leaves the registry as it was.
      for (const s of added) this.byPath.delete(`${s.info.group}/${s.info.version}/${s.info.plural}`);
      throw e;
    }
    if (this.cachesStarted) await Promise.all(added.map((s) => s.store.startCache()));
    this.changed();
  }

  /** Stops serving a resource (its stored objects stay in storage); false when it was not served. */
  unregister(group: string, version: string, resource: string): boolean {
    const path = `${group}/${version}/${resource}`;
    const served = this.byPath.get(path);
    if (!served) return false;
    this.byPath.delete(path);
    served.store.stopCache();
    this.changed();
    return true;
  }

  /** Calls listener after every registration change; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Fills every watch cache from the store and starts following it. */
  async startCaches(): Promise<void> {
    this.cachesStarted = true;
    await Promise.all([...this.byPath.values()].map((s) => s.store.startCache()));
  }

  stopCaches(): void {
    for (const s of this.byPath.values()) s.store.stopCache();
  }

  /** What serves a resource, or undefined. */
  served(group: string, version: string, resource: string): ServedResource | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  /** The store serving a resource, or undefined. */
  lookup(group: string, version: string, resource: string): GenericStore | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`)?.store;
  }

  /** The store of a core-or-group resource at its served version (first match). */
  byResource(group: string, resource: string): GenericStore | undefined {
    const info = this.resources.find((r) => r.group === group && r.plural === resource);
    return info ? this.lookup(info.group, info.version, info.plural) : undefined;
  }

  /** Resources of one group version, in registration order. */
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

/** Kube-aware version order, preferred first: GA > beta > alpha, then higher major and minor; others by name. */
export function compareKubeVersions(a: string, b: string): number {
  const pa = versionPriority(a);
  const pb = versionPriority(b);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pb[i] - pa[i];
  return a.localeCompare(b);
}

function sortVersions(versions: string[]): string[] {
  return versions.sort(compareKubeVersions);
}
