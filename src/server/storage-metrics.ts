/**
 * The registry's side of the storage metrics: the type label of each key prefix
 * (etcd_request_duration_seconds) and apiserver_storage_objects, counted from the watch
 * caches when scraped (each cache holds every object of its resource, so no store scan).
 */
import type { Registry } from '../registry/registry.js';
import type { ResourceInfo } from '../registry/resource-info.js';
import type { TypeOfPrefix } from './instrumented-store.js';
import type { ApiServerMetrics } from './metrics.js';

/** Each storage prefix's owner: the stored definition, not a converted or virtual view of it. */
function storedResources(registry: Registry): ResourceInfo[] {
  const owners = new Map<string, ResourceInfo>();
  for (const g of registry.groups)
    for (const v of g.versions)
      for (const info of registry.resourcesOf(g.group, v)) if (!info.conversion && !info.def.virtual) owners.set(info.keyPrefix, info);
  return [...owners.values()];
}

/** Upstream's type name of a resource's objects: its internal Go type (`*core.Pod`, `*rbac.Role`). */
function goTypeName(info: ResourceInfo): string {
  const pkg = info.group === '' ? 'core' : info.group.slice(0, info.group.indexOf('.') < 0 ? info.group.length : info.group.indexOf('.'));
  return `*${pkg}.${info.kind}`;
}

/** The type label of a key prefix, from the registry (custom resources are unstructured, as upstream). */
export function storageTypes(registry: () => Registry | undefined): TypeOfPrefix {
  let types = new Map<string, string>();
  let generation = -1;
  return (prefix) => {
    const r = registry();
    if (r === undefined) return undefined;
    if (generation !== r.generation) {
      types = new Map(storedResources(r).map((info) => [info.keyPrefix, goTypeName(info)]));
      generation = r.generation;
    }
    const known = types.get(prefix);
    if (known !== undefined) return known;
    // A custom resource's keys are /registry/<group>/<plural>/...: the group has dots.
    return prefix.slice(1, -1).includes('.') ? '*unstructured.Unstructured' : undefined;
  };
}

/** Sets apiserver_storage_objects at each scrape from the caches' sizes. */
export function countStoredObjects(metrics: ApiServerMetrics, registry: Registry): void {
  metrics.registry.onCollect(() => {
    for (const info of storedResources(registry)) {
      const cache = registry.lookup(info.group, info.version, info.plural)?.cache;
      if (cache === undefined) continue;
      metrics.storageObjects.set([info.group === '' ? info.plural : `${info.plural}.${info.group}`], cache.objectCount());
    }
  });
}
