/**
 * The all-in-one control plane, embeddable: certificates, store, registry, API server and the
 * controllers the API needs, started in-process. `bin/orch` and tests both go through here.
 */
import 'reflect-metadata';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ensureCertificates } from '../pki/certificates.js';
import { writeKubeconfig } from '../pki/kubeconfig.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import type { Store } from '../storage/interface.js';
import { startCompactor } from '../storage/compactor.js';
import { brandFor } from '../machinery/brand.js';
import { startApiServer } from '../server/apiserver.js';
import { RestClient } from '../client/rest-client.js';
import { NamespaceController } from '../controllers/namespace-controller.js';
import type { ControlPlane, ControlPlaneOptions } from './control-plane-types.js';

export type { ControlPlane, ControlPlaneOptions } from './control-plane-types.js';

const FIVE_MINUTES = 5 * 60 * 1000;

/** Opens the configured store under dataDir. */
function openStore(kind: ControlPlaneOptions['storageBackend'], dataDir: string): Store {
  if (kind === 'memory') return new MemoryStore();
  return SqliteStore.open(join(dataDir, 'state.db'));
}

/** Starts API server and controllers; resolves once `/readyz` would answer 200. */
export async function startControlPlane(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const dataDir = resolve(opts.dataDir ?? '.orch');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const brand = brandFor(opts.kubernetesCompat ?? false);
  const bindAddress = opts.bindAddress ?? '127.0.0.1';
  const pki = await ensureCertificates(opts.certDir ?? join(dataDir, 'pki'), {
    hosts: ['localhost', brand.word === 'kube' ? 'kubernetes' : 'orch', `${brand.word === 'kube' ? 'kubernetes' : 'orch'}.default.svc`],
    ips: ['127.0.0.1', '::1', ...(bindAddress !== '127.0.0.1' && bindAddress !== '0.0.0.0' && bindAddress !== '::' ? [bindAddress] : [])],
  });
  const serving = {
    certPem: opts.tlsCertPem ?? pki.serverCertPem,
    keyPem: opts.tlsKeyPem ?? pki.serverKeyPem,
  };
  const store = openStore(opts.storageBackend, dataDir);
  const stopCompactor = startCompactor(store, { intervalMs: opts.compactionIntervalMs ?? FIVE_MINUTES });
  const server = await startApiServer({
    brand,
    store,
    bindAddress,
    port: opts.securePort ?? 6443,
    certPem: serving.certPem,
    keyPem: serving.keyPem,
    clientCaPem: opts.clientCaPem ?? pki.caCertPem,
    authentication: {
      tokenAuthFile: opts.tokenAuthFile,
      anonymousAuth: opts.anonymousAuth,
      requestHeader: opts.requestHeader,
      enableBootstrapTokenAuth: opts.enableBootstrapTokenAuth,
      webhook: opts.authenticationTokenWebhook,
    },
    eventTtlMs: opts.eventTtlMs ?? 60 * 60 * 1000,
    serviceClusterIPRange: opts.serviceClusterIPRange,
    serviceNodePortRange: opts.serviceNodePortRange,
    shutdownDelayMs: opts.shutdownDelayMs ?? 0,
    livezGracePeriodMs: opts.livezGracePeriodMs ?? 0,
    requestTimeoutMs: opts.requestTimeoutMs,
    minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds,
    inFlight: opts.inFlight,
    watchHistoryMs: opts.compactionIntervalMs ?? FIVE_MINUTES,
    featureGates: opts.featureGates,
  });
  const host = bindAddress === '0.0.0.0' || bindAddress === '::' ? '127.0.0.1' : bindAddress;
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${server.port}`;
  const kubeconfigPath = join(dataDir, 'admin.kubeconfig');
  await writeKubeconfig(kubeconfigPath, {
    server: url,
    caPem: pki.caCertPem,
    clientCertPem: pki.adminCertPem,
    clientKeyPem: pki.adminKeyPem,
    clusterName: brand.word === 'kube' ? 'kubernetes' : 'orch',
    userName: 'admin',
    contextName: brand.word === 'kube' ? 'kubernetes-admin' : 'orch-admin',
  });
  const client = new RestClient({
    server: url,
    caPem: pki.caCertPem,
    certPem: pki.adminCertPem,
    keyPem: pki.adminKeyPem,
    userAgent: `${brand.word}-controller-manager`,
  });
  const namespaceController = new NamespaceController({ client, finalizer: brand.namespaceFinalizer });
  if (opts.controllers !== false) namespaceController.start();
  let stopping: Promise<void> | undefined;
  return {
    url,
    port: server.port,
    kubeconfigPath,
    caPem: pki.caCertPem,
    adminCertPem: pki.adminCertPem,
    adminKeyPem: pki.adminKeyPem,
    stop() {
      stopping ??= (async () => {
        namespaceController.stop();
        client.close();
        await server.shutdown();
        await stopCompactor();
        await store.close();
      })();
      return stopping;
    },
  };
}
