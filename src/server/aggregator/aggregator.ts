/**
 * The aggregator inside the API server (upstream's kube-aggregator in front of kube-apiserver):
 * the APIService table it routes by, auto-registration of the built-in and CRD group versions,
 * the availability checks, and the proxy for the group versions other servers serve. Its
 * post-start hooks and the autoregister-completion check carry upstream's names.
 */
import type { Registry } from '../../registry/registry.js';
import type { ReadPlan } from '../../registry/read-options.js';
import type { CoreLookup } from '../../admission/webhooks/target.js';
import type { HealthCheck } from '../health.js';
import type { RequestState } from '../filters/chain.js';
import { APIServiceTable, type RemoteGroupVersion } from './table.js';
import { BackendTransport, type ProxyClientCertificate } from './backend.js';
import { startAutoRegistration } from './autoregister.js';
import { startAvailabilityController } from './available.js';
import { proxyToAPIService } from './proxy.js';
import type { AvailabilityMetrics } from './metrics.js';

/** Services and endpoints as the cache has them: a check never waits for the store. */
const CACHED: ReadPlan = { kind: 'any' };

export interface Aggregator {
  /** Proxies the request when a remote APIService serves its path; false when it is this server's. */
  route(state: RequestState): Promise<void> | false;
  /** What discovery lists beside the registry's groups, and a counter of its changes. */
  readonly remote: { readonly generation: number; groupVersions(): RemoteGroupVersion[] };
  /** Upstream's `autoregister-completion` check: every built-in APIService seen Available once. */
  readonly completion: HealthCheck;
  /**
   * Resolves once every built-in APIService this server serves itself has been seen Available
   * (what start-up waits for); rejects when the first registration pass cannot write them.
   */
  readonly registered: Promise<void>;
  stop(): void;
}

export interface AggregatorOptions {
  /** The client certificate presented to aggregated servers; none: requests go without one. */
  proxyClient?: ProxyClientCertificate;
  /** How often every remote APIService is checked again (upstream 30 s). */
  resyncMs?: number;
  /** Where the availability checks are counted (the server's metrics, when it has them). */
  metrics?: AvailabilityMetrics;
}

/** Starts the aggregator's controllers over the registry; call before CRDs are served. */
export function startAggregator(registry: Registry, opts: AggregatorOptions = {}): Aggregator {
  const apiServices = registry.byResource(registry.brand.group('apiregistration', true), 'apiservices');
  const crds = registry.byResource(registry.brand.group('apiextensions', true), 'customresourcedefinitions');
  const services = registry.byResource('', 'services');
  const endpoints = registry.byResource('', 'endpoints');
  if (!apiServices?.cache || !crds || !services?.cache || !endpoints?.cache)
    throw new Error('the aggregator needs apiservices, customresourcedefinitions, services and endpoints');
  const lookup: CoreLookup = async (resource, namespace, name) => {
    const store = resource === 'services' ? services : endpoints;
    try {
      const entry = await store.readEntry(namespace, name, CACHED);
      return JSON.parse(entry.json.toString('utf8')) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  const table = new APIServiceTable(apiServices.cache);
  const transport = new BackendTransport(lookup, opts.proxyClient);
  const autoregistration = startAutoRegistration(registry, apiServices, crds);
  const availability = startAvailabilityController({
    registry,
    apiServices,
    table,
    transport,
    lookup,
    services: services.cache,
    endpoints: endpoints.cache,
    resyncMs: opts.resyncMs,
    metrics: opts.metrics,
  });
  const pending = new Set(autoregistration.builtin);
  let stopped = false;
  const settle = (): boolean => {
    for (const name of pending) if (table.get(name)?.available) pending.delete(name);
    return pending.size === 0 || stopped;
  };
  // Start-up waits for the ones this server makes Available itself; one a user pointed at a
  // server of theirs is left to the readiness check, as upstream's readyz waits for it.
  const settledLocally = (): boolean => settle() || [...pending].every((name) => table.get(name)?.service !== undefined);
  let stopWaiting = () => {};
  const available = new Promise<void>((resolve) => {
    if (settledLocally()) return resolve();
    const off = table.onChange(() => {
      if (!settledLocally()) return;
      off();
      resolve();
    });
    stopWaiting = () => {
      off();
      resolve();
    };
  });
  const registered = autoregistration.synced.then(() => available);
  return {
    route(state) {
      const view = table.remoteFor(state.path);
      return view === undefined ? false : proxyToAPIService(state, view, transport);
    },
    remote: {
      get generation() {
        return table.generation;
      },
      groupVersions: () => table.remoteGroupVersions(),
    },
    completion: {
      name: 'autoregister-completion',
      check: () => {
        // Go's %v of a sorted string list.
        if (!settle()) throw new Error(`missing APIService: [${[...pending].sort().join(' ')}]`);
      },
    },
    registered,
    stop() {
      stopped = true;
      stopWaiting();
      autoregistration.stop();
      availability.stop();
      table.stop();
      transport.close();
    },
  };
}
