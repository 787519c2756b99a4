/**
 * The all-in-one control plane, embeddable: certificates, store, registry, API server and the
 * controllers the API needs, started in-process. `bin/orch` and tests both go through here.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ensureCertificates } from '../pki/certificates.js';
import { ensureFrontProxyCertificates, FRONT_PROXY_CLIENT_NAME } from '../pki/front-proxy.js';
import { writeKubeconfig } from '../pki/kubeconfig.js';
import { DEFAULT_QUOTA_BACKEND_BYTES, NO_SPACE_MESSAGE } from '../storage/limits.js';
import { brandFor } from '../machinery/brand.js';
import { startApiServer } from '../server/apiserver.js';
import { controlPlaneHelpers } from './control-plane-helpers.js';
import { type AuthorizationSettings, DEFAULT_AUTHORIZATION_MODES } from '../server/authorization-config.js';
import type { ControlPlane, ControlPlaneOptions } from './control-plane-types.js';
import { lockDataDir } from './data-dir-lock.js';
import { explainListenError } from './startup-errors.js';
import { openStorage } from './storage-backend.js';
import { checkStoreBrand } from './store-brand.js';

export type { ControlPlane, ControlPlaneOptions, RawRequestOptions, RawResponse, TestNamespace } from './control-plane-types.js';

const FIVE_MINUTES = 5 * 60 * 1000;

/**
 * `--anonymous-auth` (upstream's default: on). Upstream refuses anonymous requests under
 * AlwaysAllow, which would otherwise let anyone do anything, and says so.
 */
function anonymousAllowed(opts: ControlPlaneOptions, authorization: AuthorizationSettings): boolean {
  const wanted = opts.anonymousAuth ?? true;
  if (wanted && authorization.modes.includes('AlwaysAllow')) {
    process.stderr.write(
      'W AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer\n',
    );
    return false;
  }
  return wanted;
}

/**
 * Starts API server, controllers and scheduler in this process; resolves once `/readyz` would
 * answer 200 and the controllers have made the start-up namespaces' default objects. A failure
 * rejects with a one-line message naming the problem and its fix, after undoing what was
 * started; the kubeconfig is written only once the server listens.
 *
 * @example
 * const cp = await startControlPlane({ storageBackend: 'memory', securePort: 0 });
 * const ns = await cp.createNamespace();
 * await cp.request('POST', `/api/v1/namespaces/${ns.name}/configmaps`, { body: { metadata: { name: 'a' } } });
 * await ns.dispose();
 * await cp.stop();
 */
export async function startControlPlane(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const undo: (() => unknown)[] = [];
  try {
    return await start(opts, undo);
  } catch (err) {
    for (const step of undo.reverse())
      await Promise.resolve()
        .then(step)
        .catch(() => {});
    throw err;
  }
}

async function start(opts: ControlPlaneOptions, undo: (() => unknown)[]): Promise<ControlPlane> {
  const dataDir = resolve(opts.dataDir ?? '.orch');
  await mkdir(dataDir, { recursive: true, mode: 0o700 }).catch((err: Error) => {
    throw new Error(`cannot create data directory ${dataDir} (${err.message}): choose another --data-dir`);
  });
  const lock = lockDataDir(dataDir);
  undo.push(() => lock.release());
  const brand = brandFor(opts.kubernetesCompat ?? false);
  const bindAddress = opts.bindAddress ?? '127.0.0.1';
  const certDir = opts.certDir ?? join(dataDir, 'pki');
  const pki = await ensureCertificates(certDir, {
    hosts: ['localhost', brand.word === 'kube' ? 'kubernetes' : 'orch', `${brand.word === 'kube' ? 'kubernetes' : 'orch'}.default.svc`],
    ips: ['127.0.0.1', '::1', ...(bindAddress !== '127.0.0.1' && bindAddress !== '0.0.0.0' && bindAddress !== '::' ? [bindAddress] : [])],
  });
  // Nothing about the proxy configured: kubeadm's front proxy, so aggregated servers trust orch's requests.
  const frontProxy = opts.requestHeader === undefined && opts.proxyClient === undefined ? await ensureFrontProxyCertificates(certDir) : undefined;
  const requestHeader =
    opts.requestHeader ??
    (frontProxy && {
      clientCaPem: frontProxy.caCertPem,
      allowedNames: [FRONT_PROXY_CLIENT_NAME],
      usernameHeaders: ['X-Remote-User'],
      groupHeaders: ['X-Remote-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-'],
    });
  const proxyClient = opts.proxyClient ?? (frontProxy && { certPem: frontProxy.clientCertPem, keyPem: frontProxy.clientKeyPem });
  const serving = {
    certPem: opts.tlsCertPem ?? pki.serverCertPem,
    keyPem: opts.tlsKeyPem ?? pki.serverKeyPem,
  };
  const { store, healthCheck, stopCompactor } = await openStorage(opts, dataDir);
  undo.push(() => store.close());
  undo.push(stopCompactor);
  await checkStoreBrand(store, brand, opts.storageBackend === 'etcd3' ? 'etcd' : dataDir);
  const port = opts.securePort ?? 6443;
  const authorization = opts.authorization ?? { modes: DEFAULT_AUTHORIZATION_MODES };
  const server = await startApiServer({
    brand,
    store,
    bindAddress,
    port,
    certPem: serving.certPem,
    keyPem: serving.keyPem,
    clientCaPem: opts.clientCaPem ?? pki.caCertPem,
    authentication: {
      tokenAuthFile: opts.tokenAuthFile,
      anonymousAuth: anonymousAllowed(opts, authorization),
      requestHeader,
      enableBootstrapTokenAuth: opts.enableBootstrapTokenAuth,
      webhook: opts.authenticationTokenWebhook,
      serviceAccounts: opts.serviceAccounts,
      oidc: opts.oidc,
    },
    authorization,
    eventTtlMs: opts.eventTtlMs ?? 60 * 60 * 1000,
    storageCheck: healthCheck,
    serviceClusterIPRange: opts.serviceClusterIPRange,
    serviceNodePortRange: opts.serviceNodePortRange,
    endpointReconcileIntervalMs: opts.endpointReconcileIntervalMs,
    shutdownDelayMs: opts.shutdownDelayMs ?? 0,
    livezGracePeriodMs: opts.livezGracePeriodMs ?? 0,
    requestTimeoutMs: opts.requestTimeoutMs,
    minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds,
    inFlight: opts.inFlight,
    enablePriorityAndFairness: opts.enablePriorityAndFairness,
    audit: opts.audit,
    watchHistoryMs: opts.compactionIntervalMs ?? FIVE_MINUTES,
    featureGates: opts.featureGates,
    metrics: opts.metrics,
    runtimeConfig: opts.runtimeConfig,
    serviceAccountAdmission: opts.serviceAccountAdmission,
    proxyClient,
  }).catch((err: unknown) => {
    if (err instanceof Error && err.message === NO_SPACE_MESSAGE) {
      // Start-up writes (bootstrap objects) found the store full: only a larger quota lets the
      // server start so that objects can be deleted.
      throw new Error(
        `the store in ${dataDir} holds ${store.dbSize()} bytes, too many for --quota-backend-bytes ${opts.quotaBackendBytes || DEFAULT_QUOTA_BACKEND_BYTES}: start with a larger --quota-backend-bytes, then delete objects`,
      );
    }
    throw explainListenError(err, { bindAddress, port });
  });
  undo.push(() => server.shutdown());
  const host = bindAddress === '0.0.0.0' || bindAddress === '::' ? '127.0.0.1' : bindAddress;
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${server.port}`;
  const kubeconfigPath = join(dataDir, 'admin.kubeconfig');
  // Written only now that the server listens, atomically (kubeconfig.ts): a failed start leaves
  // the previous kubeconfig, never a half-written one or one naming a server that is not there.
  const kubeconfig = await writeKubeconfig(kubeconfigPath, {
    server: url,
    caPem: pki.caCertPem,
    clientCertPem: pki.adminCertPem,
    clientKeyPem: pki.adminKeyPem,
    clusterName: brand.word === 'kube' ? 'kubernetes' : 'orch',
    userName: 'admin',
    contextName: brand.word === 'kube' ? 'kubernetes-admin' : 'orch-admin',
  });
  // Loaded only when they run: `orch-apiserver` starts neither, and their modules are a third
  // of what the all-in-one would otherwise load before it can serve.
  const controllers =
    opts.controllers !== false
      ? await (await import('./in-process-controllers.js')).startInProcessControllers({ opts, brand, url, pki, store, registry: server.registry })
      : undefined;
  undo.push(() => controllers?.stop());
  const scheduler =
    (opts.scheduler ?? opts.controllers !== false)
      ? await (await import('./in-process-scheduler.js')).startInProcessScheduler({ opts, brand, url, pki })
      : undefined;
  undo.push(() => scheduler?.stop());
  // Last, so the state reset() returns to is the one the caller is handed.
  const helpers = await controlPlaneHelpers({
    admin: { url, caPem: pki.caCertPem, certPem: pki.adminCertPem, keyPem: pki.adminKeyPem },
    kubeconfig,
    store,
    registry: server.registry,
    namespaceController: controllers?.namespaceController ?? false,
    eagerSnapshot: opts.storageBackend === 'memory',
  });
  undo.push(() => helpers.close());
  let stopping: Promise<void> | undefined;
  return {
    url,
    port: server.port,
    kubeconfigPath,
    kubeconfig,
    caPem: pki.caCertPem,
    adminCertPem: pki.adminCertPem,
    adminKeyPem: pki.adminKeyPem,
    scheduler: scheduler?.running,
    kubeConfig: helpers.kubeConfig,
    request: helpers.request,
    createNamespace: helpers.createNamespace,
    reset: helpers.reset,
    stop() {
      stopping ??= (async () => {
        await controllers?.stop();
        await scheduler?.stop();
        helpers.close();
        await server.shutdown();
        await stopCompactor();
        await store.close();
        lock.release();
        // Closed sockets and the listener release their handles in the loop's close phase, after
        // this turn's immediates; a timer runs after it, so once stop() resolves no handle of
        // this control plane is left in the process.
        await new Promise((r) => setTimeout(r, 0));
      })();
      return stopping;
    },
  };
}
