/**
 * The namespace controller (upstream pkg/controller/namespace): when a namespace is
 * terminating, delete everything in it (every namespaced resource discovery lists, custom ones
 * included), report progress in the namespace's status conditions through
 * `namespaces/<name>/status`, and once nothing is left remove its finalizer through
 * `namespaces/<name>/finalize`, so the server removes the namespace. Namespaces come from an
 * informer; each is synced through a rate-limited queue, so failures are retried with backoff.
 */
import { SharedInformer } from '../client/informer.js';
import type { KubeObject } from '../client/store.js';
import { RateLimitedQueue } from '../client/work-queue.js';
import type { Controller, ControllerContext } from './controller.js';
import { type DeletionReport, emptyReport, type NamespaceCondition, namespaceConditions } from './namespace-conditions.js';

interface NamespacedResource {
  /** `/api/v1` or `/apis/<group>/<version>`. */
  path: string;
  name: string;
  /** `<resource>.<group>`, as the conditions name it. */
  label: string;
}

interface NamespaceObj extends KubeObject {
  spec?: { finalizers?: string[] };
  status?: { phase?: string; conditions?: NamespaceCondition[] };
}

interface ObjectList {
  items?: { metadata?: { finalizers?: string[] } }[];
}

/** Resources deleted at once: the server's own limits keep the rest in order. */
const RESOURCE_LANES = 8;

export interface NamespaceControllerOptions {
  /** Delay before re-checking a namespace whose content is still going away (default 1 s). */
  retryMs?: number;
  now?: () => Date;
}

export class NamespaceController implements Controller {
  private readonly namespaces: SharedInformer<NamespaceObj>;
  private readonly queue: RateLimitedQueue;
  private readonly finalizer: string;
  /** One pending re-check per namespace: a status write's own event must not start a second chain. */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: NamespaceControllerOptions = {},
  ) {
    this.finalizer = ctx.brand.namespaceFinalizer;
    const onError = (err: unknown) => ctx.log('error', `namespace controller: ${String(err)}`);
    this.namespaces = new SharedInformer({ client: ctx.informerClient, path: '/api/v1/namespaces', onError });
    this.queue = new RateLimitedQueue((name) => this.sync(name), {
      workers: ctx.concurrentSyncs,
      onError: (key, err) => ctx.log('error', `namespace controller: deletion of namespace ${key} failed: ${String(err)}`),
    });
    const observe = (ns: NamespaceObj) => {
      if (ns.metadata.deletionTimestamp !== undefined) this.queue.add(ns.metadata.name ?? '');
    };
    this.namespaces.addEventHandler({ add: observe, update: (_old, ns) => observe(ns) });
  }

  start(): void {
    this.namespaces.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.queue.stop();
    await this.namespaces.stop();
  }

  /** Checks again after retryMs (upstream re-queues after its estimate while content remains). */
  private later(name: string): void {
    if (this.stopped || this.timers.has(name)) return;
    const t = setTimeout(() => {
      this.timers.delete(name);
      this.queue.add(name);
    }, this.opts.retryMs ?? 1000);
    this.timers.set(name, t);
  }

  private async sync(name: string): Promise<void> {
    const client = this.ctx.client;
    const ns = encodeURIComponent(name);
    const cur = await client.request<NamespaceObj>('GET', `/api/v1/namespaces/${ns}`);
    if (cur.status === 404) return;
    if (cur.status !== 200) throw new Error(`reading namespace ${name}: ${cur.status}`);
    let obj = cur.body;
    if (obj.metadata.deletionTimestamp === undefined || !(obj.spec?.finalizers ?? []).includes(this.finalizer)) return;

    const report = emptyReport();
    const resources = await this.namespacedResources(report);
    await inLanes(resources, (r) => this.deleteContent(name, r, report));

    const previous = obj.status?.conditions ?? [];
    const conditions = namespaceConditions(previous, report, this.opts.now?.() ?? new Date());
    if (JSON.stringify(conditions) !== JSON.stringify(previous)) {
      const res = await client.request<NamespaceObj>('PUT', `/api/v1/namespaces/${ns}/status`, { ...obj, status: { ...obj.status, conditions } });
      if (res.status === 200) obj = res.body;
      else this.ctx.log('error', `namespace controller: couldn't update status condition for namespace "${name}": ${res.status}`);
    }
    // Any failure (discovery included) keeps the namespace, as upstream: its content may be unknown.
    if (report.discoveryFailures.length > 0 || report.contentFailures.length > 0) {
      throw new Error([...report.discoveryFailures, ...report.contentFailures].join('; '));
    }
    if (report.remaining.size > 0) {
      this.later(name);
      return;
    }
    const finalizers = (obj.spec?.finalizers ?? []).filter((f) => f !== this.finalizer);
    const res = await client.request('PUT', `/api/v1/namespaces/${ns}/finalize`, { ...obj, spec: { ...obj.spec, finalizers } });
    if (res.status !== 200 && res.status !== 404) throw new Error(`finalizing namespace ${name}: ${res.status}`);
  }

  /** Deletes one resource's objects in the namespace and counts what is left (and what holds it). */
  private async deleteContent(namespace: string, r: NamespacedResource, report: DeletionReport): Promise<void> {
    const client = this.ctx.client;
    const base = `${r.path}/namespaces/${encodeURIComponent(namespace)}/${r.name}`;
    // Background, as upstream's deleter asks: objects whose kind orphans by default
    // (replication controllers) must not wait for the garbage collector to orphan them.
    const del = await client.request('DELETE', `${base}?propagationPolicy=Background`);
    if (del.status >= 300 && del.status !== 404) {
      report.contentFailures.push(`deleting ${r.label}: ${statusText(del.status, del.body)}`);
      return;
    }
    const probe = await client.request<ObjectList>('GET', `${base}?limit=1`);
    if ((probe.body?.items?.length ?? 0) === 0) return;
    // Something is left (finalizers, graceful deletion): count it all, as the conditions say.
    const left = await client.request<ObjectList>('GET', base);
    if (left.status !== 200) {
      report.contentFailures.push(`listing ${r.label}: ${statusText(left.status, left.body)}`);
      return;
    }
    const items = left.body.items ?? [];
    if (items.length === 0) return;
    report.remaining.set(r.label, items.length);
    for (const item of items) {
      for (const f of item.metadata?.finalizers ?? []) report.finalizers.set(f, (report.finalizers.get(f) ?? 0) + 1);
    }
  }

  /**
   * Every namespaced resource that can be deleted as a collection, in each group's preferred
   * version (upstream's ServerPreferredNamespacedResources); failed group versions are reported.
   */
  private async namespacedResources(report: DeletionReport): Promise<NamespacedResource[]> {
    const client = this.ctx.client;
    const versions: { path: string; group: string; groupVersion: string }[] = [{ path: '/api/v1', group: '', groupVersion: 'v1' }];
    const groups = await client.expect<{ groups?: { name: string; preferredVersion?: { groupVersion: string }; versions: { groupVersion: string }[] }[] }>(
      'GET',
      '/apis',
    );
    for (const g of groups.groups ?? []) {
      const gv = g.preferredVersion?.groupVersion ?? g.versions[0]?.groupVersion;
      if (gv) versions.push({ path: `/apis/${gv}`, group: g.name, groupVersion: gv });
    }
    const out: NamespacedResource[] = [];
    const seen = new Set<string>();
    for (const v of versions) {
      const list = await client.request<{ resources?: { name: string; namespaced: boolean; verbs: string[] }[] }>('GET', v.path);
      if (list.status !== 200) {
        report.discoveryFailures.push(`${v.groupVersion}: ${statusText(list.status, list.body)}`);
        continue;
      }
      for (const r of list.body.resources ?? []) {
        if (!r.namespaced || r.name.includes('/') || !r.verbs.includes('deletecollection') || !r.verbs.includes('list')) continue;
        const label = `${r.name}.${v.group}`;
        // Two views of one storage (core and events.orch.io events) are each emptied; both are cheap.
        if (seen.has(label)) continue;
        seen.add(label);
        out.push({ path: v.path, name: r.name, label });
      }
    }
    return out;
  }
}

/** A failed response's Status message, or its code. */
function statusText(status: number, body: unknown): string {
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : `status ${status}`;
}

async function inLanes<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(RESOURCE_LANES, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}
