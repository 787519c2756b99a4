/**
 * The garbage collector (upstream's pkg/controller/garbagecollector), talking to the API only
 * through the REST client: monitors of every deletable type feed the dependency graph; the
 * graph queues nodes to look at; workers of the attemptToDelete queue delete dependents whose
 * owners are all gone (and drop references to gone owners from dependents that keep a live
 * one), finish foreground deletions; workers of the attemptToOrphan queue strip references
 * to an owner deleted with `orphan` and then release it. Discovery is read again periodically
 * and whenever a CustomResourceDefinition changes, so types added later are collected too.
 */
import { REAL_CLOCK } from '../../client/clock.js';
import { recordCoreEvent } from '../../client/core-event.js';
import { type ListWatch, listAndWatch } from '../../client/list-watch.js';
import type { RestClient } from '../../client/rest-client.js';
import type { Brand } from '../../machinery/brand.js';
import { FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS } from '../../machinery/object-meta-validation.js';
import { AbsentOwnerCache } from './absent-owner-cache.js';
import { DependencyGraph, type GraphNode, type GraphSink, type Identity, type ObjectMetadata, type OwnerReference } from './graph.js';
import { Monitor } from './monitors.js';
import { deleteObject, getMetadata, type Propagation, removeFinalizer, removeOwnerReferences, unblockOwnerReferences } from './object-operations.js';
import { WorkQueue } from './work-queue.js';
import { discoverResources, kindKey, type ResourceCatalog, type ResourceType } from './resources.js';

export interface GarbageCollectorOptions {
  client: RestClient;
  brand: Brand;
  /** Workers per queue (upstream's --concurrent-gc-syncs, default 20). */
  workers?: number;
  /** How often discovery is read again (upstream: 30 s). */
  discoveryResyncMs?: number;
  /** Errors of syncs that will be retried (logging). */
  onError?: (err: unknown) => void;
}

/** Monitors listing their type at once while the collector starts. */
const MONITOR_STARTS_AT_ONCE = 2;

/** The event source upstream's collector records with. */
const COMPONENT = 'garbage-collector-controller';

interface CrdStatus {
  status?: { conditions?: { type?: string; status?: string }[] };
}

type Outcome = 'done' | 'forget' | 'requeue';

/** An owner reference to a type discovery does not (yet) list: retried after the next discovery. */
class RestMappingError extends Error {}

export class GarbageCollector {
  private readonly client: RestClient;
  private readonly workers: number;
  private readonly graph: DependencyGraph;
  private readonly absentOwners = new AbsentOwnerCache();
  private readonly attemptToDelete = new WorkQueue<string>();
  private readonly attemptToOrphan = new WorkQueue<string>();
  private catalog: ResourceCatalog = { watched: [], byKind: new Map() };
  private readonly monitors = new Map<string, Monitor>();
  private crdWatch: ListWatch | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private syncAgain = false;
  private stopped = false;

  constructor(private readonly opts: GarbageCollectorOptions) {
    this.client = opts.client;
    this.workers = Math.max(1, opts.workers ?? 20);
    const sink: GraphSink = {
      attemptToDelete: (n) => this.attemptToDelete.add(n.identity.uid),
      attemptToOrphan: (n) => this.attemptToOrphan.add(n.identity.uid),
      ownerAbsent: (id) => this.absentOwners.add(id),
      invalidNamespaceOwner: (dep, ref) => this.reportInvalidNamespaceOwner(dep, ref),
    };
    this.graph = new DependencyGraph(sink);
  }

  start(): void {
    this.requestSync();
    const crdGroup = this.opts.brand.group('apiextensions', true);
    // A new custom type is collected as soon as it is served (Established), not only at the
    // next periodic resync; other CRD changes leave discovery as it was and cost nothing.
    this.crdWatch = listAndWatch<CrdStatus>(this.client, `/apis/${crdGroup}/v1/customresourcedefinitions`, {
      onList: () => {},
      onEvent: (type, crd) => {
        if (type === 'DELETED' || crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) this.requestSync();
      },
    });
    const every = this.opts.discoveryResyncMs ?? 30_000;
    this.resyncTimer = setInterval(() => this.requestSync(), every);
    for (let i = 0; i < this.workers; i++) {
      void this.runWorker(this.attemptToDelete, (uid) => this.attemptToDeleteItem(uid));
      void this.runWorker(this.attemptToOrphan, (uid) => this.attemptToOrphanItem(uid));
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    this.crdWatch?.stop();
    for (const m of this.monitors.values()) m.stop();
    this.attemptToDelete.shutdown();
    this.attemptToOrphan.shutdown();
  }

  /** True once every monitor has listed its type (upstream's graph sync). */
  hasSynced(): boolean {
    return this.monitors.size > 0 && [...this.monitors.values()].every((m) => m.hasSynced());
  }

  // ---- discovery and monitors ----

  /** Reads discovery again soon; calls during a sync coalesce into one more sync. */
  private requestSync(): void {
    if (this.stopped) return;
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = this.syncMonitors()
      .catch((err: unknown) => this.opts.onError?.(err))
      .finally(() => {
        this.syncing = undefined;
        if (this.syncAgain) {
          this.syncAgain = false;
          this.requestSync();
        }
      });
  }

  private async syncMonitors(): Promise<void> {
    const catalog = await discoverResources(this.client);
    if (this.stopped) return;
    this.catalog = catalog;
    const wanted = new Map(catalog.watched.map((t) => [`${t.basePath}/${t.resource}`, t]));
    for (const [key, m] of this.monitors) {
      if (wanted.has(key)) continue;
      m.stop();
      this.monitors.delete(key);
    }
    const added: Monitor[] = [];
    for (const [key, t] of wanted) {
      if (this.monitors.has(key)) continue;
      const m = new Monitor(this.client, t, this.graph, (err) => this.opts.onError?.(err), this.opts.brand.metaGroup);
      this.monitors.set(key, m);
      added.push(m);
    }
    // A few lists at a time: dozens of lists and watch connections opened at once would stall
    // the server for everyone else right after start.
    await Promise.all(
      Array.from({ length: Math.min(MONITOR_STARTS_AT_ONCE, added.length) }, async () => {
        for (let m = added.shift(); m !== undefined && !this.stopped; m = added.shift()) {
          m.start();
          await m.firstList(1000);
        }
      }),
    );
  }

  private typeOf(ref: { apiVersion: string; kind: string }): ResourceType {
    const t = this.catalog.byKind.get(kindKey(ref.apiVersion, ref.kind));
    if (t === undefined) {
      this.requestSync();
      throw new RestMappingError(`unable to get REST mapping for ${ref.apiVersion}/${ref.kind}`);
    }
    return t;
  }

  // ---- workers ----

  private async runWorker(queue: WorkQueue<string>, process: (uid: string) => Promise<Outcome>): Promise<void> {
    for (;;) {
      const uid = await queue.get();
      if (uid === undefined) return;
      let outcome: Outcome;
      try {
        outcome = await process(uid);
      } catch (err) {
        if (!(err instanceof RestMappingError)) this.opts.onError?.(err);
        outcome = 'requeue';
      }
      if (this.stopped) return;
      if (outcome === 'requeue') queue.addRateLimited(uid);
      else queue.forget(uid);
      queue.done(uid);
    }
  }

  /** Upstream's attemptToDeleteItem. */
  private async attemptToDeleteItem(uid: string): Promise<Outcome> {
    const item = this.graph.get(uid);
    if (item === undefined) return 'forget';
    // Being deleted is a one-way trip: its dependents are looked at once it is gone.
    if (item.beingDeleted && !item.deletingDependents) return 'forget';
    const type = this.typeOf(item.identity);
    let owners: readonly OwnerReference[] = item.owners;
    let finalizers = item.finalizers;
    let resourceVersion = item.resourceVersion;
    if (item.virtual) {
      // Only the API can tell whether an object never observed exists.
      const latest = await getMetadata(this.client, type, item.identity.namespace, item.identity.name);
      if (latest === undefined || latest.uid !== item.identity.uid) {
        this.graph.remove(uid, true, item.identity);
        return 'forget';
      }
      owners = latest.ownerReferences ?? [];
      finalizers = latest.finalizers ?? [];
      resourceVersion = latest.resourceVersion;
    }
    if (item.deletingDependents) {
      await this.processDeletingDependents(item, type);
    } else if (owners.length > 0) {
      const outcome = await this.collectIfOwnersGone(item, type, owners, finalizers, resourceVersion);
      if (outcome === 'forget') return 'forget';
    }
    // An object not yet seen by an informer is looked at again until it is.
    return item.virtual ? 'requeue' : 'done';
  }

  /**
   * Deletes carry the resourceVersion the decision was made on besides the uid: an object that
   * gained a live owner since (an informer event not yet seen) answers 409 and is looked at again.
   */
  private async collectIfOwnersGone(
    item: GraphNode,
    type: ResourceType,
    owners: readonly OwnerReference[],
    finalizers: readonly string[],
    resourceVersion: string | undefined,
  ): Promise<Outcome> {
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of owners) {
      const state = await this.ownerState(item, ref);
      if (state === 'invalid') return 'forget';
      if (state === undefined) dangling.push(ref);
      else if (ref.blockOwnerDeletion === true && state.deletionTimestamp !== undefined && (state.finalizers ?? []).includes(FINALIZER_DELETE_DEPENDENTS))
        waiting.push(ref);
      else solid.push(ref);
    }
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return 'done';
      // A live owner keeps the object: only the references to gone or foreground-deleting owners go.
      await removeOwnerReferences(this.client, type, item.identity, new Set([...dangling, ...waiting].map((r) => r.uid)));
      return 'done';
    }
    if (waiting.length > 0 && item.dependents.size > 0) {
      // Its owner waits for it, and it has dependents of its own: delete it in the foreground too.
      for (const dep of item.dependents) {
        if (dep.deletingDependents) {
          // A dependent that is itself waiting may close a cycle: stop blocking (false positives are harmless).
          await unblockOwnerReferences(this.client, type, item.identity);
          break;
        }
      }
      await deleteObject(this.client, type, item.identity, 'Foreground', resourceVersion);
      return 'done';
    }
    const policy: Propagation = finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS)
      ? 'Orphan'
      : finalizers.includes(FINALIZER_DELETE_DEPENDENTS)
        ? 'Foreground'
        : 'Background';
    await deleteObject(this.client, type, item.identity, policy, resourceVersion);
    return 'done';
  }

  /**
   * The owner's metadata when it exists with the referenced uid; undefined when the reference
   * dangles; 'invalid' for a cluster-scoped object naming a namespaced owner (never resolves).
   */
  private async ownerState(item: GraphNode, ref: OwnerReference): Promise<ObjectMetadata | undefined | 'invalid'> {
    if (this.absentOwners.has(ref, '') || this.absentOwners.has(ref, item.identity.namespace)) return undefined;
    const type = this.typeOf(ref);
    if (type.namespaced && item.identity.namespace === '') return 'invalid';
    const namespace = type.namespaced ? item.identity.namespace : '';
    const absent: Identity = { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace };
    const owner = await getMetadata(this.client, type, namespace, ref.name);
    if (owner === undefined || owner.uid !== ref.uid) {
      this.absentOwners.add(absent);
      return undefined;
    }
    return owner;
  }

  /** Upstream's processDeletingDependentsItem: release the owner once no blocking dependent is left. */
  private async processDeletingDependents(item: GraphNode, type: ResourceType): Promise<void> {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) {
      await removeFinalizer(this.client, type, item.identity, FINALIZER_DELETE_DEPENDENTS);
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.attemptToDelete.add(dep.identity.uid);
  }

  /** Upstream's attemptToOrphanWorker: strip the owner from every dependent, then release it. */
  private async attemptToOrphanItem(uid: string): Promise<Outcome> {
    const owner = this.graph.get(uid);
    if (owner === undefined) return 'forget';
    const type = this.typeOf(owner.identity);
    const dependents = [...owner.dependents];
    const failures: unknown[] = [];
    // Bounded fan-out: the dependents of one owner may be many.
    let next = 0;
    const lane = async () => {
      while (next < dependents.length) {
        const dep = dependents[next++] as GraphNode;
        try {
          await removeOwnerReferences(this.client, this.typeOf(dep.identity), dep.identity, new Set([uid]));
        } catch (err) {
          failures.push(err);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.workers, dependents.length) }, lane));
    if (failures.length > 0) throw failures[0];
    await removeFinalizer(this.client, type, owner.identity, FINALIZER_ORPHAN_DEPENDENTS);
    return 'done';
  }

  private reportInvalidNamespaceOwner(dep: GraphNode, ref: OwnerReference): void {
    const ns = dep.identity.namespace;
    const message = `ownerRef [${ref.apiVersion}/${ref.kind}, namespace: ${ns}, name: ${ref.name}, uid: ${ref.uid}] does not exist in namespace ${JSON.stringify(ns)}`;
    const involved = { kind: dep.identity.kind, apiVersion: dep.identity.apiVersion, namespace: ns, name: dep.identity.name, uid: dep.identity.uid };
    recordCoreEvent(this.client, REAL_CLOCK, COMPONENT, '', involved, 'Warning', 'OwnerRefInvalidNamespace', message).catch((err: unknown) =>
      this.opts.onError?.(err),
    );
  }
}
