/**
 * The serviceaccount controller (upstream pkg/controller/serviceaccount): every active
 * namespace has the ServiceAccount `default`; one deleted is created again. Namespaces and
 * ServiceAccounts come from informers; a namespace is synced through a rate-limited queue, so
 * a refused create (no permission, server down) is retried with backoff.
 */
import { ApiError } from '../client/rest-client.js';
import { SharedInformer } from '../client/informer.js';
import type { KubeObject } from '../client/store.js';
import { RateLimitedQueue } from '../client/work-queue.js';
import { type Controller, type ControllerContext, hasCause } from './controller.js';

/** Upstream's DefaultServiceAccountsControllerOptions: only `default`. */
export const DEFAULT_SERVICE_ACCOUNTS = ['default'];

interface NamespaceObj extends KubeObject {
  status?: { phase?: string };
}

export class ServiceAccountsController implements Controller {
  private readonly namespaces: SharedInformer<NamespaceObj>;
  private readonly accounts: SharedInformer<KubeObject>;
  private readonly queue: RateLimitedQueue;

  constructor(private readonly ctx: ControllerContext) {
    const onError = (err: unknown) => ctx.log('error', `serviceaccount controller: ${String(err)}`);
    this.namespaces = new SharedInformer({ client: ctx.informerClient, path: '/api/v1/namespaces', onError });
    this.accounts = new SharedInformer({ client: ctx.informerClient, path: '/api/v1/serviceaccounts', onError });
    this.queue = new RateLimitedQueue((ns) => this.syncNamespace(ns), {
      workers: ctx.concurrentSyncs,
      onError: (key, err) => ctx.log('error', `serviceaccount controller: syncing namespace ${key}: ${String(err)}`),
    });
    this.namespaces.addEventHandler({
      add: (ns) => this.queue.add(ns.metadata.name ?? ''),
      update: (_old, ns) => this.queue.add(ns.metadata.name ?? ''),
    });
    this.accounts.addEventHandler({
      delete: (sa) => this.queue.add(sa.metadata.namespace ?? ''),
    });
  }

  start(): void {
    this.namespaces.start();
    this.accounts.start();
  }

  async stop(): Promise<void> {
    this.queue.stop();
    await Promise.all([this.namespaces.stop(), this.accounts.stop()]);
  }

  private async syncNamespace(name: string): Promise<void> {
    // Creating before the caches are filled would try to create accounts that exist.
    if (!this.namespaces.hasSynced() || !this.accounts.hasSynced()) {
      await Promise.all([this.namespaces.waitForSync(), this.accounts.waitForSync()]);
    }
    const ns = this.namespaces.store.getByKey(name);
    if (ns === undefined || ns.status?.phase !== 'Active') return;
    for (const sa of DEFAULT_SERVICE_ACCOUNTS) {
      if (this.accounts.store.getByKey(`${name}/${sa}`) !== undefined) continue;
      try {
        await this.ctx.client.expect('POST', `/api/v1/namespaces/${encodeURIComponent(name)}/serviceaccounts`, {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: sa },
        });
      } catch (err) {
        if (err instanceof ApiError && (err.status === 409 || hasCause(err.body, 'NamespaceTerminating'))) continue;
        throw err;
      }
    }
  }
}
