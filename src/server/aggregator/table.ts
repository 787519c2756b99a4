/**
 * Every APIService as the aggregator routes by it (upstream's apiservice-registration
 * controller and proxy handlers): followed from the registry's watch cache, indexed by
 * `<group>/<version>` for the ones a service serves, with the discovery documents the
 * availability checks fetched from those services. `generation` counts changes, so discovery
 * rebuilds its documents only when something it shows changed.
 */
import type { Cacher } from '../../storage/cacher/cacher.js';
import { entryObject } from '../../registry/cache-entry.js';
import { type APIServiceView, viewOf } from './apiservice.js';

/** What discovery shows of a remote group version: its priorities and the resources its server listed. */
export interface RemoteGroupVersion {
  group: string;
  version: string;
  groupPriorityMinimum: number;
  versionPriority: number;
  /** The `resources` of the server's APIResourceList at its last successful check; absent: never fetched. */
  resources?: Record<string, unknown>[];
  /** The last check failed after an earlier one succeeded (aggregated discovery marks it Stale). */
  stale: boolean;
}

export class APIServiceTable {
  private readonly byName = new Map<string, APIServiceView>();
  /** Remote APIServices by `<group>/<version>`. */
  private readonly remote = new Map<string, APIServiceView>();
  private readonly fetched = new Map<string, { resources: Record<string, unknown>[]; stale: boolean }>();
  private readonly listeners = new Set<(name: string) => void>();
  generation = 0;

  constructor(private readonly cache: Cacher) {
    const unlisten = cache.listen((event) => {
      const view = viewOf(entryObject(event.entry));
      if (event.type === 'DELETED') this.remove(view.name);
      else this.put(view);
      for (const l of this.listeners) l(view.name);
      return true;
    });
    const unrelist = cache.onRelist(() => this.reload());
    this.stop = () => {
      unlisten();
      unrelist();
    };
    this.reload();
  }

  readonly stop: () => void;

  /** Calls listener with the name of every APIService that changes; returns remove(). */
  onChange(listener: (name: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private reload(): void {
    this.byName.clear();
    this.remote.clear();
    for (const entry of this.cache.list()) this.put(viewOf(entryObject(entry)));
    this.generation++;
  }

  private put(view: APIServiceView): void {
    const old = this.byName.get(view.name);
    // What the last check fetched stays while the APIService points at the same server.
    this.remove(view.name, JSON.stringify(old?.service) !== JSON.stringify(view.service));
    this.byName.set(view.name, view);
    if (view.service) this.remote.set(`${view.group}/${view.version}`, view);
    this.generation++;
  }

  private remove(name: string, forgetFetched = true): void {
    const old = this.byName.get(name);
    if (old === undefined) return;
    this.byName.delete(name);
    const key = `${old.group}/${old.version}`;
    if (this.remote.get(key)?.name === name) this.remote.delete(key);
    if (forgetFetched) this.fetched.delete(name);
    this.generation++;
  }

  get(name: string): APIServiceView | undefined {
    return this.byName.get(name);
  }

  all(): APIServiceView[] {
    return [...this.byName.values()];
  }

  /** The remote APIService serving a request path (`/apis/<group>/<version>[/...]`); cheap when there is none. */
  remoteFor(path: string): APIServiceView | undefined {
    if (this.remote.size === 0 || !path.startsWith('/apis/')) return undefined;
    const groupEnd = path.indexOf('/', 6);
    if (groupEnd < 0) return undefined;
    const versionEnd = path.indexOf('/', groupEnd + 1);
    const version = path.slice(groupEnd + 1, versionEnd < 0 ? undefined : versionEnd);
    if (version === '') return undefined;
    return this.remote.get(`${path.slice(6, groupEnd)}/${version}`);
  }

  /** Records what a check of a remote APIService's discovery found (undefined: the check failed). */
  recordDiscovery(name: string, resources: Record<string, unknown>[] | undefined): void {
    const old = this.fetched.get(name);
    if (resources === undefined) {
      if (old && !old.stale) {
        this.fetched.set(name, { resources: old.resources, stale: true });
        this.generation++;
      }
      return;
    }
    if (old && !old.stale && JSON.stringify(old.resources) === JSON.stringify(resources)) return;
    this.fetched.set(name, { resources, stale: false });
    this.generation++;
  }

  /** The remote group versions discovery lists. */
  remoteGroupVersions(): RemoteGroupVersion[] {
    return [...this.remote.values()].map((v) => {
      const f = this.fetched.get(v.name);
      return {
        group: v.group,
        version: v.version,
        groupPriorityMinimum: v.groupPriorityMinimum,
        versionPriority: v.versionPriority,
        resources: f?.resources,
        stale: f?.stale ?? false,
      };
    });
  }
}
