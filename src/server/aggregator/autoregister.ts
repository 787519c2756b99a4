/**
 * Upstream's autoregister controller with its two sources: an APIService for every built-in
 * group version this server serves (label `onstart`: created or corrected at start, removed at
 * start when that version is no longer served), and for every served version of every CRD
 * (upstream's crdRegistrationController, label `true`: kept in step while the server runs).
 * An APIService without the label is a user's: it is never changed. The whole desired set is
 * reconciled in one pass over the cache (a few dozen objects); only differences are written.
 */
import type { Obj } from '../../machinery/object.js';
import { metaOf } from '../../machinery/object.js';
import { rec, records, str } from '../../machinery/fields.js';
import { StatusError } from '../../machinery/status.js';
import type { Registry } from '../../registry/registry.js';
import type { GenericStore } from '../../registry/generic-store.js';
import { systemContext } from '../../registry/bootstrap.js';
import { entryObject } from '../../registry/cache-entry.js';
import { klog } from '../../machinery/klog.js';
import { builtinPriorities, CRD_PRIORITY, type APIServicePriority } from './priorities.js';

type Mode = 'onstart' | 'true';

interface Desired {
  spec: { group: string; version: string; groupPriorityMinimum: number; versionPriority: number };
  mode: Mode;
}

/** How long a failed pass waits before the next (a write lost to a concurrent one, a store hiccup). */
const RETRY_MS = 1000;

export interface AutoRegistration {
  /** Names of the built-in APIServices (upstream's autoregister-completion waits for them to be Available). */
  readonly builtin: readonly string[];
  /**
   * Settles after the first pass (the `onstart` removals happen only in it): rejects with its
   * error when it fails, so that a server that cannot write its APIServices (a full store) says
   * so at start instead of never becoming ready. Later passes are retried.
   */
  readonly synced: Promise<void>;
  stop(): void;
}

/** The automanaged label's key: `kube-aggregator.kubernetes.io/automanaged` under the brand's names. */
export function automanagedLabel(registry: Registry): string {
  return `${registry.brand.word}-aggregator.${registry.brand.labelDomain}/automanaged`;
}

/** APIService name of a group version: `<version>.<group>` (core: `v1.`). */
export const apiServiceName = (group: string, version: string): string => `${version}.${group}`;

function desiredOf(group: string, version: string, p: APIServicePriority, mode: Mode): Desired {
  return { spec: { group, version, groupPriorityMinimum: p.groupPriorityMinimum, versionPriority: p.versionPriority }, mode };
}

/** Starts registering; call before CRDs are served, so only built-in groups count as built-in. */
export function startAutoRegistration(registry: Registry, apiServices: GenericStore, crds: GenericStore): AutoRegistration {
  const label = automanagedLabel(registry);
  const priorities = builtinPriorities(registry.brand);
  const onStart = new Map<string, Desired>();
  for (const g of registry.groups) {
    for (const v of g.versions) {
      const p = priorities.get(`${g.group}/${v}`);
      if (p !== undefined) onStart.set(apiServiceName(g.group, v), desiredOf(g.group, v, p, 'onstart'));
    }
  }
  const apiServiceCache = apiServices.cache;
  const crdCache = crds.cache;
  if (apiServiceCache === undefined || crdCache === undefined) throw new Error('apiservices and customresourcedefinitions need their watch caches');

  /**
   * The APIServices each CRD asks for (its served versions), by the CRD's key: kept from the
   * CRD cache's events, one CRD at a time, so that a CRD's status write costs one parse of that
   * CRD and no pass over all of them (CRDs can be large, and many).
   */
  const byCrd = new Map<string, string[]>();
  const crdVersionsOf = (crd: Obj): string[] => {
    const spec = rec(crd.spec);
    const group = str(spec.group);
    return records(spec.versions)
      .filter((v) => v.served === true)
      .map((v) => `${group}/${str(v.name)}`)
      .sort();
  };
  const loadCrds = (): void => {
    byCrd.clear();
    for (const entry of crdCache.list()) byCrd.set(entry.key, crdVersionsOf(entryObject(entry)));
  };
  loadCrds();

  /** Every served version of every CRD, as upstream's crdRegistrationController registers them. */
  function crdDesired(): Map<string, Desired> {
    const out = new Map<string, Desired>();
    for (const gvs of byCrd.values()) {
      for (const gv of gvs) {
        const slash = gv.lastIndexOf('/');
        const [group, version] = [gv.slice(0, slash), gv.slice(slash + 1)];
        const name = apiServiceName(group, version);
        if (!onStart.has(name)) out.set(name, desiredOf(group, version, CRD_PRIORITY, 'true'));
      }
    }
    return out;
  }

  let first = true;
  let running = false;
  let again = false;
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let resolveSynced: () => void = () => {};
  let rejectSynced: (e: unknown) => void = () => {};
  const synced = new Promise<void>((resolve, reject) => {
    resolveSynced = resolve;
    rejectSynced = reject;
  });
  // Awaited by start-up only; a rejection nobody awaits must not crash the process.
  synced.catch(() => {});

  function trigger(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    void pass().finally(() => {
      running = false;
      if (again) {
        again = false;
        trigger();
      }
    });
  }

  async function pass(): Promise<void> {
    try {
      await reconcile();
      if (first) {
        first = false;
        resolveSynced();
      }
    } catch (e) {
      if (first) rejectSynced(e);
      klog.error(e, 'autoregister: reconciling APIServices failed');
      if (!stopped && retry === undefined)
        retry = setTimeout(() => {
          retry = undefined;
          trigger();
        }, RETRY_MS);
    }
  }

  async function reconcile(): Promise<void> {
    const desired = new Map([...crdDesired(), ...onStart]);
    const existing = new Map<string, Obj>();
    for (const entry of apiServiceCache?.list() ?? []) {
      const obj = entryObject(entry);
      existing.set(metaOf(obj).name ?? '', obj);
    }
    const ctx = systemContext(registry);
    // The writes of one pass are independent: issued together, they share the store's commits.
    const writes: Promise<void>[] = [];
    for (const [name, d] of desired) {
      const current = existing.get(name);
      if (current === undefined) {
        const obj = { apiVersion: apiServices.info.apiVersion, kind: 'APIService', metadata: { name, labels: { [label]: d.mode } }, spec: { ...d.spec } };
        writes.push(ignore(409, () => apiServices.create(ctx, '', obj, { dryRun: false })));
        continue;
      }
      // Someone took it over (removed the label): theirs now, as upstream leaves it.
      if (metaOf(current).labels?.[label] === undefined) continue;
      if (JSON.stringify(rec(current.spec)) === JSON.stringify(d.spec)) continue;
      writes.push(
        ignore(404, () => apiServices.guaranteedUpdate(ctx, '', name, (obj) => ({ ...obj, spec: { ...d.spec } }), { dryRun: false, subresource: '' })),
      );
    }
    for (const [name, current] of existing) {
      if (desired.has(name)) continue;
      const mode = metaOf(current).labels?.[label];
      // `onstart` ones go only in the first pass: a group switched off since the last start.
      if (mode === 'true' || (mode === 'onstart' && first)) writes.push(ignore(404, () => apiServices.delete(ctx, '', name, { dryRun: false })));
    }
    // Every write settles before a failure is reported, so the retry starts from a quiet store.
    const failed = (await Promise.allSettled(writes)).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  // Status writes (the availability checks') change nothing registration looks at.
  const registrationOf = (json: Buffer | undefined): string => {
    if (json === undefined) return '';
    const obj = JSON.parse(json.toString('utf8')) as Obj;
    return JSON.stringify([metaOf(obj).labels?.[label], obj.spec]);
  };
  const unlistenServices = apiServiceCache.listen((event) => {
    if (event.type !== 'MODIFIED' || registrationOf(event.entry.json) !== registrationOf(event.prev?.json)) trigger();
    return true;
  });
  const unlistenCrds = crdCache.listen((event) => {
    const before = byCrd.get(event.entry.key);
    if (event.type === 'DELETED') byCrd.delete(event.entry.key);
    else byCrd.set(event.entry.key, crdVersionsOf(entryObject(event.entry)));
    if (JSON.stringify(before) !== JSON.stringify(byCrd.get(event.entry.key))) trigger();
    return true;
  });
  const unrelistCrds = crdCache.onRelist(() => {
    loadCrds();
    trigger();
  });
  trigger();
  return {
    builtin: [...onStart.keys()],
    synced,
    stop() {
      stopped = true;
      unlistenServices();
      unlistenCrds();
      unrelistCrds();
      if (retry !== undefined) clearTimeout(retry);
      resolveSynced();
    },
  };
}

/** Runs write, treating a StatusError with the given code (a concurrent writer got there first) as done. */
async function ignore(code: number, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (e) {
    if (!(e instanceof StatusError && e.code === code)) throw e;
  }
}
