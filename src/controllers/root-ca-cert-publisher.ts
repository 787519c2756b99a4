/**
 * The root-ca-cert-publisher (upstream pkg/controller/certificates/rootcacertpublisher): every
 * namespace has the ConfigMap `kube-root-ca.crt` whose `ca.crt` is the cluster's root CA, so
 * pods can verify the API server; a changed or deleted one is put back.
 */
import { ApiError } from '../client/rest-client.js';
import { SharedInformer } from '../client/informer.js';
import type { KubeObject } from '../client/store.js';
import { RateLimitedQueue } from '../client/work-queue.js';
import { deepEqual } from '../machinery/deep-equal.js';
import { ROOT_CA_CONFIGMAP } from '../machinery/root-ca.js';
import { type Controller, type ControllerContext, hasCause } from './controller.js';

const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

interface ConfigMapObj extends KubeObject {
  metadata: KubeObject['metadata'] & { annotations?: Record<string, string> };
  data?: Record<string, string>;
}

export class RootCaCertPublisher implements Controller {
  private readonly namespaces: SharedInformer<KubeObject>;
  private readonly configMaps: SharedInformer<ConfigMapObj>;
  private readonly queue: RateLimitedQueue;
  private readonly rootCa: string;
  private readonly descriptionKey: string;

  constructor(private readonly ctx: ControllerContext) {
    if (!ctx.rootCaPem) throw new Error('root-ca-cert-publisher needs the root CA (--root-ca-file or the kubeconfig CA)');
    this.rootCa = ctx.rootCaPem;
    this.descriptionKey = `${ctx.brand.labelDomain}/description`;
    const onError = (err: unknown) => ctx.log('error', `root-ca-cert-publisher: ${String(err)}`);
    this.namespaces = new SharedInformer({ client: ctx.informerClient, path: '/api/v1/namespaces', onError });
    this.configMaps = new SharedInformer({
      client: ctx.informerClient,
      path: '/api/v1/configmaps',
      query: `fieldSelector=${encodeURIComponent(`metadata.name=${ROOT_CA_CONFIGMAP}`)}`,
      onError,
    });
    this.queue = new RateLimitedQueue((ns) => this.syncNamespace(ns), {
      workers: ctx.concurrentSyncs,
      onError: (key, err) => ctx.log('error', `root-ca-cert-publisher: syncing namespace ${key}: ${String(err)}`),
    });
    this.namespaces.addEventHandler({
      add: (ns) => this.queue.add(ns.metadata.name ?? ''),
      update: (_old, ns) => this.queue.add(ns.metadata.name ?? ''),
    });
    this.configMaps.addEventHandler({
      update: (_old, cm) => this.queue.add(cm.metadata.namespace ?? ''),
      delete: (cm) => this.queue.add(cm.metadata.namespace ?? ''),
    });
  }

  start(): void {
    this.namespaces.start();
    this.configMaps.start();
  }

  async stop(): Promise<void> {
    this.queue.stop();
    await Promise.all([this.namespaces.stop(), this.configMaps.stop()]);
  }

  private async syncNamespace(name: string): Promise<void> {
    if (!this.namespaces.hasSynced() || !this.configMaps.hasSynced()) {
      await Promise.all([this.namespaces.waitForSync(), this.configMaps.waitForSync()]);
    }
    if (this.namespaces.store.getByKey(name) === undefined) return;
    const path = `/api/v1/namespaces/${encodeURIComponent(name)}/configmaps`;
    const data = { 'ca.crt': this.rootCa };
    const cm = this.configMaps.store.getByKey(`${name}/${ROOT_CA_CONFIGMAP}`);
    if (cm === undefined) {
      try {
        await this.ctx.client.expect('POST', path, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIGMAP, annotations: { [this.descriptionKey]: DESCRIPTION } },
          data,
        });
      } catch (err) {
        // A namespace gone or terminating is not retried; an existing map arrives by watch.
        if (err instanceof ApiError && (err.status === 404 || err.status === 409 || hasCause(err.body, 'NamespaceTerminating'))) return;
        throw err;
      }
      return;
    }
    const annotations = cm.metadata.annotations ?? {};
    if (deepEqual(cm.data ?? {}, data) && (annotations[this.descriptionKey] ?? '') !== '') return;
    const updated = { ...cm, data, metadata: { ...cm.metadata, annotations: { ...annotations, [this.descriptionKey]: DESCRIPTION } } };
    await this.ctx.client.expect('PUT', `${path}/${ROOT_CA_CONFIGMAP}`, updated);
  }
}
