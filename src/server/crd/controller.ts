/**
 * The API server's CRD controllers in one loop (upstream's naming, establishing, finalizing
 * and the CRD handler's serving): follows CustomResourceDefinitions through the registry's
 * watch cache and, one CRD at a time, accepts its names, registers each served version as a
 * resource (routes, discovery and OpenAPI follow the registry), marks it Established, and on
 * deletion removes its instances, stops serving it and releases its cleanup finalizer.
 */
import { isPlainObject, metaOf, type Obj, rfc3339 } from '../../machinery/object.js';
import { list, rec, str } from '../../machinery/fields.js';
import { StatusError } from '../../machinery/status.js';
import type { ResourceDefinition } from '../../api/types.js';
import { cleanupFinalizer } from '../../api/apiextensions/crd-validation.js';
import type { Registry } from '../../registry/registry.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { RequestContext } from '../../registry/context.js';
import { entryObject } from '../../registry/cache-entry.js';
import { type AcceptedNames, definitionsOf, type Lifecycle, namesOf } from './definitions.js';
import { acceptNames, type Condition, establishedCondition, usedNamesOf } from './names.js';

const SYSTEM_USER = { name: 'system:apiserver', groups: ['system:masters'] };

/** How long a deleting CRD waits before checking again for instances held by finalizers. */
const INSTANCE_RECHECK_MS = 1000;

/** What is served for one CRD: the definitions registered and what they were built from. */
interface Serving {
  group: string;
  defs: ResourceDefinition[];
  fingerprint: string;
  lifecycle: Lifecycle;
}

export interface CrdController {
  /** Resolves once every CRD stored at start is served (upstream's crd-informer-synced). */
  readonly synced: Promise<void>;
  stop(): void;
}

function conditionsOf(crd: Obj): Condition[] {
  return list(rec(crd.status).conditions).filter(isPlainObject) as unknown as Condition[];
}

/** acceptedNames as upstream serializes them (empty optional fields left out). */
function acceptedNamesJson(n: AcceptedNames): Record<string, unknown> {
  return {
    plural: n.plural,
    ...(n.singular ? { singular: n.singular } : {}),
    ...(n.shortNames.length ? { shortNames: n.shortNames } : {}),
    kind: n.kind,
    ...(n.listKind ? { listKind: n.listKind } : {}),
    ...(n.categories.length ? { categories: n.categories } : {}),
  };
}

/** Sets a condition, keeping lastTransitionTime when its status did not change (upstream's SetCRDCondition). */
function setCondition(conditions: Record<string, unknown>[], c: Condition, now: Date): Record<string, unknown>[] {
  const old = conditions.find((o) => o.type === c.type);
  const lastTransitionTime = old && old.status === c.status && typeof old.lastTransitionTime === 'string' ? old.lastTransitionTime : rfc3339(now);
  const next = { type: c.type, status: c.status, lastTransitionTime, reason: c.reason, message: c.message };
  return old ? conditions.map((o) => (o === old ? next : o)) : [...conditions, next];
}

/** Starts the controller over the registry's CRD cache. */
export function startCrdController(registry: Registry): CrdController {
  const group = registry.brand.group('apiextensions', true);
  const crds = registry.byResource(group, 'customresourcedefinitions');
  const maybeCache = crds?.cache;
  if (crds === undefined || maybeCache === undefined) throw new Error('customresourcedefinitions are not served');
  const cache = maybeCache;
  const crdStore: GenericStore = crds;
  const serving = new Map<string, Serving>();
  /** Names accepted by this controller's own writes, ahead of the cache seeing them. */
  const accepted = new Map<string, { group: string; names: AcceptedNames }>();
  const pending = new Set<string>();
  let running = false;
  let stopped = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let idle: (() => void) | undefined;

  const ctx = (): RequestContext => ({ user: SYSTEM_USER, brand: registry.brand, now: new Date() });
  const current = (name: string): Obj | undefined => {
    const entry = cache.get(`${crdStore.info.keyPrefix}${name}`);
    return entry ? entryObject(entry) : undefined;
  };

  function enqueue(name: string): void {
    if (stopped) return;
    pending.add(name);
    if (!running) void drain();
  }

  async function drain(): Promise<void> {
    running = true;
    while (pending.size > 0 && !stopped) {
      const name = pending.values().next().value as string;
      pending.delete(name);
      try {
        await sync(name);
      } catch (e) {
        // A failed step (a write lost to a concurrent one, a store hiccup) is retried shortly.
        if (!(e instanceof StatusError && e.code === 404)) retryLater(name);
      }
    }
    running = false;
    idle?.();
  }

  function retryLater(name: string): void {
    const t = setTimeout(() => {
      timers.delete(t);
      enqueue(name);
    }, INSTANCE_RECHECK_MS);
    timers.add(t);
  }

  function stopServing(name: string): void {
    const s = serving.get(name);
    if (!s) return;
    serving.delete(name);
    for (const d of s.defs) registry.unregister(s.group, d.version, d.plural);
  }

  async function serve(name: string, crd: Obj, names: AcceptedNames): Promise<void> {
    const spec = rec(crd.spec);
    const fingerprint = JSON.stringify([spec, names]);
    if (serving.get(name)?.fingerprint === fingerprint) return;
    stopServing(name);
    const lifecycle: Lifecycle = { terminating: false };
    const defs = definitionsOf(crd, names, lifecycle);
    await registry.register(...defs);
    serving.set(name, { group: str(spec.group), defs, fingerprint, lifecycle });
  }

  /** The names every other CRD of the group holds (each CRD's accepted names are known once synced or seeded). */
  function usedBy(name: string, crdGroup: string): ReturnType<typeof usedNamesOf> {
    const others: AcceptedNames[] = [];
    for (const [other, a] of accepted) if (other !== name && a.group === crdGroup) others.push(a.names);
    return usedNamesOf(others);
  }

  async function sync(name: string): Promise<void> {
    const crd = current(name);
    if (crd === undefined) {
      stopServing(name);
      accepted.delete(name);
      return;
    }
    if (metaOf(crd).deletionTimestamp !== undefined) return finalize(name, crd);
    const spec = rec(crd.spec);
    const crdGroup = str(spec.group);
    const own = accepted.get(name);
    const held = own?.names ?? namesOf(rec(rec(crd.status).acceptedNames));
    const { names, namesAccepted } = acceptNames(namesOf(rec(spec.names)), held, usedBy(name, crdGroup));
    accepted.set(name, { group: crdGroup, names });
    const conditions = conditionsOf(crd);
    const established = establishedCondition(
      namesAccepted,
      conditions.find((c) => c.type === 'Established'),
    );
    // Served before it is marked Established, so a client that waits for the condition finds the endpoints.
    if (names.plural !== '' && names.kind !== '' && established.status === 'True') await serve(name, crd, names);
    await writeStatus(name, (status, now) => {
      let next = list(status.conditions).filter(isPlainObject);
      next = setCondition(next, namesAccepted, now);
      next = setCondition(next, established, now);
      return { ...status, acceptedNames: acceptedNamesJson(names), conditions: next };
    });
  }

  /** Writes status through the status subresource when the change alters it. */
  async function writeStatus(name: string, change: (status: Record<string, unknown>, now: Date) => Record<string, unknown>): Promise<void> {
    const c = ctx();
    await crdStore
      .guaranteedUpdate(
        c,
        '',
        name,
        (obj) => {
          const status = rec(obj.status);
          const next = change(status, c.now);
          if (JSON.stringify(next) === JSON.stringify(status)) throw UNCHANGED;
          return { ...obj, status: next };
        },
        { dryRun: false, subresource: 'status' },
      )
      .catch((e: unknown) => {
        if (e !== UNCHANGED) throw e;
      });
  }

  /** Removes a deleting CRD's instances, then stops serving it and releases its finalizer. */
  async function finalize(name: string, crd: Obj): Promise<void> {
    const finalizer = cleanupFinalizer(crd);
    if (!(metaOf(crd).finalizers ?? []).includes(finalizer)) return;
    await writeStatus(name, (status, now) => ({
      ...status,
      conditions: setCondition(
        list(status.conditions).filter(isPlainObject),
        { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' },
        now,
      ),
    }));
    const s = serving.get(name);
    // No new instances while the old ones are removed.
    if (s) s.lifecycle.terminating = true;
    const store = s ? registry.lookup(s.group, s.defs[0].version, s.defs[0].plural) : undefined;
    if (store) {
      const remaining = await deleteInstances(store);
      if (remaining > 0) {
        retryLater(name);
        return;
      }
    }
    stopServing(name);
    accepted.delete(name);
    const c = ctx();
    await crdStore.guaranteedUpdate(
      c,
      '',
      name,
      (obj) => {
        const meta = metaOf(obj);
        meta.finalizers = (meta.finalizers ?? []).filter((f) => f !== finalizer);
        return obj;
      },
      { dryRun: false, subresource: '' },
    );
  }

  /** Deletes every instance; answers how many are still stored (held by their own finalizers). */
  async function deleteInstances(store: GenericStore): Promise<number> {
    const c = ctx();
    const entries = store.cache?.list() ?? [];
    let remaining = 0;
    for (const entry of entries) {
      const meta = metaOf(entryObject(entry));
      try {
        const result = await store.delete(c, meta.namespace ?? '', meta.name ?? '', { dryRun: false });
        if (!result.removed) remaining++;
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 404)) throw e;
      }
    }
    return remaining;
  }

  const unlisten = cache.listen((event) => {
    const name = metaOf(entryObject(event.entry)).name;
    if (name !== undefined) enqueue(name);
    return true;
  });
  // The names CRDs already hold are theirs before any of them is synced again (first come, first served).
  for (const entry of cache.list()) {
    const crd = entryObject(entry);
    const name = metaOf(crd).name;
    if (name === undefined) continue;
    accepted.set(name, { group: str(rec(crd.spec).group), names: namesOf(rec(rec(crd.status).acceptedNames)) });
    pending.add(name);
  }
  const synced = new Promise<void>((resolve) => {
    idle = () => {
      idle = undefined;
      resolve();
    };
  });
  void drain();
  return {
    synced,
    stop() {
      stopped = true;
      unlisten();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      idle?.();
    },
  };
}

/** Thrown by a status change that changes nothing, so no write happens. */
const UNCHANGED = new Error('status unchanged');
