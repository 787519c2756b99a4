/**
 * The API server's own Service (`kubernetes`, or `orch` in orch mode) in `default`, with its
 * Endpoints and EndpointSlice: upstream's bootstrap controller (pkg/controlplane/controller.go
 * and reconcilers/). Reconciled at start and every interval, so a deleted or edited object comes
 * back; the addresses come from the lease or master-count reconciler (master-leases.ts).
 */
import { networkInterfaces } from 'node:os';
import type { Obj } from '../machinery/object.js';
import { klog } from '../machinery/klog.js';
import { deepEqual } from '../machinery/deep-equal.js';
import { systemContext } from './bootstrap.js';
import { reconcileObject } from './reconcile-object.js';
import type { GenericStore } from './generic-store.js';
import { type EndpointAddressSource, endpointAddressSource } from './master-leases.js';
import type { Registry } from './registry.js';
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, ipv4, ipv4Text, parseClusterIPRange } from './service/ranges.js';

/** Upstream's EndpointInterval: how often the Service and its endpoints are reconciled. */
export const ENDPOINT_RECONCILE_INTERVAL_MS = 10_000;

export interface KubernetesServiceOptions {
  /** The secure port the Service's targetPort and the endpoints name. */
  securePort: number;
  /** --bind-address; the advertised address is resolved from it as upstream does. */
  bindAddress: string;
  /** --service-cluster-ip-range: the Service gets its first address. */
  serviceClusterIPRange?: string;
  intervalMs?: number;
}

export interface KubernetesServiceController {
  /** The address the endpoints list for this server. */
  readonly advertiseAddress: string;
  readonly reconcilerType: EndpointAddressSource['type'];
  /** Stops the loop and takes this server out of the endpoints (lease reconciler). */
  stop(): Promise<void>;
}

/**
 * Upstream's ResolveBindAddress: a bind address that is unspecified or loopback is replaced by
 * the host's first global IPv4 address (Endpoints refuse loopback addresses); 127.0.0.1 only when
 * the host has none, which the Endpoints' validation then refuses, as upstream's does.
 */
export function advertiseAddress(bindAddress: string): string {
  const ip = ipv4(bindAddress);
  if (ip !== undefined && ip !== 0 && ip >>> 24 !== 127) return bindAddress;
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) {
      if (a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.')) return a.address;
    }
  }
  return '127.0.0.1';
}

/** Creates the Service and its endpoints now, then keeps them so every interval. */
export async function startKubernetesService(registry: Registry, opts: KubernetesServiceOptions): Promise<KubernetesServiceController> {
  const brand = registry.brand;
  const name = brand.vendor;
  const range = parseClusterIPRange(opts.serviceClusterIPRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE);
  const serviceIP = ipv4Text(range.base + 1);
  const ip = advertiseAddress(opts.bindAddress);
  const source = endpointAddressSource(registry.store, ip);
  const port = { name: 'https', port: opts.securePort, protocol: 'TCP' };
  const services = storeFor(registry, '', 'services');
  const endpoints = storeFor(registry, '', 'endpoints');
  const slices = storeFor(registry, brand.group('discovery', true), 'endpointslices');

  const servicePorts = [{ name: 'https', port: 443, protocol: 'TCP', targetPort: opts.securePort }];
  const reconcileService = async (): Promise<void> => {
    const ctx = systemContext(registry);
    await reconcileObject(services, ctx, 'default', name, (cur: Obj | undefined) => {
      if (cur === undefined) {
        return {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name, namespace: 'default', labels: { provider: brand.vendor, component: 'apiserver' } },
          spec: { ports: servicePorts, clusterIP: serviceIP, sessionAffinity: 'None', type: 'ClusterIP' },
        };
      }
      // Upstream corrects only the ports and the type; everything else is the user's.
      const spec = (cur.spec ?? {}) as Record<string, unknown>;
      const ports = Array.isArray(spec.ports)
        ? spec.ports.map((p: Record<string, unknown>) => ({ name: p.name, port: p.port, protocol: p.protocol, targetPort: p.targetPort }))
        : [];
      if (deepEqual(ports, servicePorts) && spec.type === 'ClusterIP') return cur;
      return { ...cur, spec: { ...spec, ports: servicePorts, type: 'ClusterIP' } };
    });
  };

  const writeEndpoints = async (ips: string[]): Promise<void> => {
    if (ips.length === 0) throw new Error(`no API server IPs were listed in storage, refusing to erase all endpoints for the ${name} service`);
    const ctx = systemContext(registry);
    const subsets = [{ addresses: ips.map((a) => ({ ip: a })), ports: [port] }];
    await reconcileObject(endpoints, ctx, 'default', name, (cur: Obj | undefined) => {
      const meta = (cur?.metadata ?? { name, namespace: 'default' }) as Record<string, unknown>;
      // The mirroring controller must leave these Endpoints alone: their slice is written here.
      const labels = { ...((meta.labels as Record<string, string> | undefined) ?? {}), [`endpointslice.${brand.labelDomain}/skip-mirror`]: 'true' };
      return { ...(cur ?? { apiVersion: 'v1', kind: 'Endpoints' }), metadata: { ...meta, labels }, subsets };
    });
    const slice = {
      addressType: 'IPv4',
      endpoints: ips.map((a) => ({ addresses: [a], conditions: { ready: true } })),
      ports: [port],
    };
    await reconcileObject(slices, ctx, 'default', name, (cur: Obj | undefined) => {
      const meta = (cur?.metadata ?? { name, namespace: 'default' }) as Record<string, unknown>;
      const labels = { ...((meta.labels as Record<string, string> | undefined) ?? {}), [`${brand.labelDomain}/service-name`]: name };
      return { ...(cur ?? { apiVersion: slices.info.apiVersion, kind: 'EndpointSlice' }), metadata: { ...meta, labels }, ...slice };
    });
  };

  const reconcile = async (): Promise<void> => {
    try {
      await reconcileService();
      await writeEndpoints(await source.renew());
    } catch (e) {
      klog.error(e, `unable to sync ${name} service`);
    }
  };

  await reconcile();
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(reconcile);
  }, opts.intervalMs ?? ENDPOINT_RECONCILE_INTERVAL_MS);
  timer.unref();
  return {
    advertiseAddress: ip,
    reconcilerType: source.type,
    async stop() {
      clearInterval(timer);
      await running;
      // Upstream's RemoveEndpoints at shutdown: the others keep serving without this one.
      if (source.type !== 'lease') return;
      try {
        const rest = await source.release();
        if (rest.length > 0) await writeEndpoints(rest);
      } catch (e) {
        klog.error(e, `unable to remove this server from the ${name} endpoints`);
      }
    },
  };
}

function storeFor(registry: Registry, group: string, resource: string): GenericStore {
  const store = registry.byResource(group, resource);
  if (!store) throw new Error(`${resource} not served`);
  return store;
}
