/**
 * One list-and-watch per watched resource type (upstream's monitors), feeding the graph with
 * metadata only. A relist is diffed against the uids this monitor knew, so objects deleted
 * while the watch was down still reach the graph as deletions.
 */
import { type ListWatch, listAndWatch, metadataOnly } from '../../client/list-watch.js';
import type { RestClient } from '../../client/rest-client.js';
import type { DependencyGraph, ObjectMetadata } from './graph.js';
import type { ResourceType } from './resources.js';

/** The fields of a deleted object the graph needs after the fact. */
interface Known {
  meta: ObjectMetadata;
}

export class Monitor {
  private readonly known = new Map<string, Known>();
  private listWatch: ListWatch | undefined;
  private synced = false;
  private readonly syncWaiters: (() => void)[] = [];

  constructor(
    private readonly client: RestClient,
    readonly type: ResourceType,
    private readonly graph: DependencyGraph,
    private readonly onError: (err: unknown) => void,
    /** The brand's meta group (`meta.orch.io`), of PartialObjectMetadata. */
    private readonly metaGroup: string,
  ) {}

  start(): void {
    const path = `${this.type.basePath}/${this.type.resource}`;
    // Metadata only, as upstream's metadata informers: a list of large objects carries none of their data.
    this.listWatch = listAndWatch<{ metadata?: ObjectMetadata }>(
      this.client,
      path,
      {
        onList: (items) => this.relist(items.map((i) => i.metadata ?? {})),
        onEvent: (type, obj) => this.guard(() => (type === 'DELETED' ? this.deleted(obj.metadata ?? {}) : this.upsert(obj.metadata ?? {}))),
      },
      undefined,
      metadataOnly(this.metaGroup),
    );
  }

  stop(): void {
    this.listWatch?.stop();
    for (const w of this.syncWaiters.splice(0)) w();
  }

  /** Resolves after the first list (or stop), or after `timeoutMs` when the list keeps failing. */
  firstList(timeoutMs: number): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, timeoutMs);
      this.syncWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  hasSynced(): boolean {
    return this.synced;
  }

  private relist(items: ObjectMetadata[]): void {
    this.guard(() => {
      const seen = new Set<string>();
      for (const meta of items) {
        if (!meta.uid) continue;
        seen.add(meta.uid);
        this.upsert(meta);
      }
      for (const [uid, k] of [...this.known]) if (!seen.has(uid)) this.deleted(k.meta);
      this.synced = true;
      for (const w of this.syncWaiters.splice(0)) w();
    });
  }

  private upsert(meta: ObjectMetadata): void {
    if (!meta.uid) return;
    const old = this.known.get(meta.uid);
    if (old !== undefined && old.meta.resourceVersion === meta.resourceVersion) return;
    this.known.set(meta.uid, { meta: slim(meta) });
    this.graph.observe(this.type.apiVersion, this.type.kind, meta, old?.meta);
  }

  private deleted(meta: ObjectMetadata): void {
    if (!meta.uid) return;
    this.known.delete(meta.uid);
    this.graph.remove(meta.uid, false);
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.onError(err);
    }
  }
}

/** Only what transitions compare: the rest of the object is not kept. */
function slim(meta: ObjectMetadata): ObjectMetadata {
  return {
    uid: meta.uid,
    name: meta.name,
    namespace: meta.namespace,
    resourceVersion: meta.resourceVersion,
    deletionTimestamp: meta.deletionTimestamp,
    finalizers: meta.finalizers,
  };
}
