/**
 * The namespace controller: when a namespace is terminating, delete everything in it (every
 * namespaced resource the server's discovery lists), and once nothing is left remove its
 * finalizer through `namespaces/<name>/finalize`, so the server removes the namespace.
 * It talks to the API only through the REST client, as a separate process would.
 */
import type { RestClient } from '../client/rest-client.js';
import { type ListWatch, listAndWatch } from '../client/list-watch.js';

interface NamespacedResource {
  path: string;
  name: string;
}

interface NamespaceObj {
  metadata: { name: string; resourceVersion?: string; deletionTimestamp?: string };
  spec?: { finalizers?: string[] };
}

export interface NamespaceControllerOptions {
  client: RestClient;
  /** The finalizer this controller owns (`orch` or `kubernetes`). */
  finalizer: string;
  /** Delay before re-checking a namespace whose content is still going away. */
  retryMs?: number;
}

export class NamespaceController {
  private stopped = false;
  private listWatch: ListWatch | undefined;
  private readonly queue = new Set<string>();
  private working = false;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly opts: NamespaceControllerOptions) {}

  /** Starts the list-and-watch loop in the background. */
  start(): void {
    this.listWatch = listAndWatch<NamespaceObj>(this.opts.client, '/api/v1/namespaces', {
      onList: (items) => {
        for (const ns of items) this.observe(ns);
      },
      onEvent: (type, ns) => {
        if (type !== 'DELETED') this.observe(ns);
      },
    });
  }

  stop(): void {
    this.stopped = true;
    this.listWatch?.stop();
    for (const t of this.timers) clearTimeout(t);
  }

  private observe(ns: NamespaceObj): void {
    if (ns.metadata.deletionTimestamp === undefined) return;
    if (!(ns.spec?.finalizers ?? []).includes(this.opts.finalizer)) return;
    this.queue.add(ns.metadata.name);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.working) return;
    this.working = true;
    try {
      while (this.queue.size > 0 && !this.stopped) {
        const name = this.queue.values().next().value as string;
        this.queue.delete(name);
        const done = await this.finalize(name).catch(() => false);
        if (!done && !this.stopped) {
          const t = setTimeout(() => {
            this.timers.delete(t);
            this.queue.add(name);
            void this.drain();
          }, this.opts.retryMs ?? 1000);
          this.timers.add(t);
        }
      }
    } finally {
      this.working = false;
    }
  }

  /** Deletes the namespace's content; true once it is empty and the finalizer is removed. */
  private async finalize(name: string): Promise<boolean> {
    const client = this.opts.client;
    const resources = await this.namespacedResources();
    let remaining = 0;
    const ns = encodeURIComponent(name);
    for (const r of resources) {
      // Background, as upstream's deleter asks: objects whose kind orphans by default
      // (replication controllers) must not wait for the garbage collector to orphan them.
      await client.request('DELETE', `${r.path}/namespaces/${ns}/${r.name}?propagationPolicy=Background`);
      const left = await client.request<{ items?: unknown[] }>('GET', `${r.path}/namespaces/${ns}/${r.name}?limit=1`);
      remaining += left.body?.items?.length ?? 0;
    }
    if (remaining > 0) return false;
    const cur = await client.request<NamespaceObj>('GET', `/api/v1/namespaces/${ns}`);
    if (cur.status === 404) return true;
    const obj = cur.body;
    const finalizers = (obj.spec?.finalizers ?? []).filter((f) => f !== this.opts.finalizer);
    const res = await client.request('PUT', `/api/v1/namespaces/${ns}/finalize`, { ...obj, spec: { ...obj.spec, finalizers } });
    return res.status === 200 || res.status === 404;
  }

  /** Every namespaced resource that can be listed and deleted as a collection, from discovery. */
  private async namespacedResources(): Promise<NamespacedResource[]> {
    const client = this.opts.client;
    const paths = ['/api/v1'];
    const groups = await client.request<{ groups: { versions: { groupVersion: string }[] }[] }>('GET', '/apis');
    for (const g of groups.body.groups ?? []) for (const v of g.versions) paths.push(`/apis/${v.groupVersion}`);
    const out: NamespacedResource[] = [];
    const seen = new Set<string>();
    for (const path of paths) {
      const list = await client.request<{ resources: { name: string; namespaced: boolean; verbs: string[] }[] }>('GET', path);
      for (const r of list.body.resources ?? []) {
        if (!r.namespaced || r.name.includes('/') || !r.verbs.includes('deletecollection') || !r.verbs.includes('list')) continue;
        // Two views of one storage (core and events.orch.io events) need one pass only.
        const key = `${path}/${r.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ path, name: r.name });
      }
    }
    return out;
  }
}
