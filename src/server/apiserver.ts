/**
 * The API server: registry over a store, admission, authorization, discovery, health and the
 * TLS listener, with upstream's start-up (post-start hooks) and graceful shutdown sequence.
 */
import { ALL_RESOURCES } from '../api/catalogue.js';
import { type RuntimeConfig, servedDefinitions } from '../api/runtime-config.js';
import type { Brand } from '../machinery/brand.js';
import type { Store } from '../storage/interface.js';
import { Registry } from '../registry/registry.js';
import { bootstrapNamespaces, bootstrapPriorityClasses } from '../registry/bootstrap.js';
import { startKubernetesService } from '../registry/kubernetes-service.js';
import { startAuthenticationInfo } from '../registry/authentication-info.js';
import { reconcileBootstrapPolicy } from '../registry/rbac-bootstrap.js';
import { startEventExpiry } from '../registry/event-expiry.js';
import { admissionChain } from '../admission/admission.js';
import { namespaceLifecycle } from '../admission/namespace-lifecycle.js';
import { nodeRestriction } from '../admission/node-restriction.js';
import { priorityAdmission } from '../admission/priority.js';
import { webhookAdmission } from '../admission/webhooks/plugins.js';
import { serviceAccountAdmission } from '../admission/service-account.js';
import { privilegedGroupAuthorizer, unionAuthorizer } from '../auth/authz/authorizer.js';
import { authorizationFor, type AuthorizationSettings } from './authorization-config.js';
import { PolicyIndex } from '../auth/authz/rbac/policy-index.js';
import { rbacWriteGuard } from './rbac-write-guard.js';
import { rbacGroup } from '../api/rbac/rbac-validation.js';
import type { InFlightLimits } from './filters/max-in-flight.js';
import { buildDiscovery } from './discovery.js';
import { serverFeatures } from './feature-gates.js';
import { createApiServerMetrics, inFlightMetrics, markDeprecatedRequest } from './metrics.js';
import { instrumentStore } from './instrumented-store.js';
import { countStoredObjects, storageTypes } from './storage-metrics.js';
import type { MetricsSettings } from '../machinery/metrics.js';
import { hookCheck, type HealthCheck } from './health.js';
import { createRouter } from './router.js';
import { issuerDocuments } from './service-account-issuer.js';
import { authenticationFor, type AuthenticationSettings, serviceAccountIssuing, tokenIssuer } from './authentication-config.js';
import { reviewToken } from './token-review.js';
import type { TokenAuthenticator } from '../auth/authn/token.js';
import type { ReviewDeps } from '../registry/reviews.js';
import { listen, type ListenerOptions } from './listener.js';
import { SERVED_RELEASE, versionInfo } from './version.js';
import { startCrdController } from './crd/controller.js';
import { type Aggregator, startAggregator } from './aggregator/aggregator.js';
import type { ProxyClientCertificate } from './aggregator/backend.js';
import { availabilityMetrics } from './aggregator/metrics.js';
import { type AuditSettings, buildAuditing } from './audit/options.js';
import { type AuditMetrics, registerAuditMetrics } from './audit/backend.js';
import { auditingServerStarted } from './audit/capture.js';
import { setUpFlowControl } from './flowcontrol/setup.js';
import { DEFAULT_IN_FLIGHT, DEFAULT_REQUEST_TIMEOUT_MS } from './router-config.js';

export interface ApiServerOptions {
  brand: Brand;
  store: Store;
  bindAddress: string;
  port: number;
  certPem: string;
  keyPem: string;
  clientCaPem: string;
  eventTtlMs: number;
  /**
   * The store's health check in /livez, /readyz and /healthz; default `storage`, a read of the
   * store. On etcd it is upstream's `etcd` check (a status call bounded by --etcd-healthcheck-timeout).
   */
  storageCheck?: HealthCheck;
  /** How long /readyz fails before the listener closes on shutdown. */
  shutdownDelayMs: number;
  /** Time after start during which unfinished post-start hooks count as live. */
  livezGracePeriodMs: number;
  /** How long the watch caches keep events for resuming watches. */
  watchHistoryMs: number;
  /** Where Service cluster IPs and node ports come from (upstream's defaults when absent). */
  serviceClusterIPRange?: string;
  serviceNodePortRange?: string;
  /** How often the API server's own Service and endpoints are reconciled (upstream 10 s). */
  endpointReconcileIntervalMs?: number;
  /** Feature gates (`--feature-gates`); ServerSideApply defaults to on. */
  featureGates?: Readonly<Record<string, boolean>>;
  /**
   * --show-hidden-metrics-for-version, --disabled-metrics, --allow-metric-labels; false: no
   * /metrics and no recording (for measuring what recording costs).
   */
  metrics?: Omit<MetricsSettings, 'currentVersion'> | false;
  /** `--runtime-config`, parsed: which group versions and resources are served (default: all but alpha). */
  runtimeConfig?: RuntimeConfig;
  /** The ServiceAccount admission plugin (upstream: on by default). Default true. */
  serviceAccountAdmission?: boolean;
  /** Authentication beyond client certificates (tokens, proxy, anonymous). */
  authentication?: AuthenticationSettings;
  /** Authorization modes after `system:masters` (none: only masters are allowed). */
  authorization?: AuthorizationSettings;
  /** --request-timeout in ms (upstream 1m; 0: none). */
  requestTimeoutMs?: number;
  /** --min-request-timeout in seconds: watches without timeoutSeconds last 1-2x this (upstream 1800). */
  minRequestTimeoutSeconds?: number;
  /** --max-requests-inflight / --max-mutating-requests-inflight (upstream 400 / 200; 0: no limit). */
  inFlight?: InFlightLimits;
  /**
   * --enable-priority-and-fairness (default true): with the APIPriorityAndFairness gate also on,
   * API Priority and Fairness replaces the in-flight limits.
   */
  enablePriorityAndFairness?: boolean;
  /** Connection deadlines and the per-address idle cap (upstream's defaults when absent). */
  connections?: Pick<ListenerOptions, 'timeouts' | 'maxIdleConnectionsPerAddress'>;
  /** Auditing (`--audit-policy-file`, `--audit-log-*`, `--audit-webhook-*`); a bad policy stops start-up. */
  audit?: AuditSettings;
  /** Where apiserver_audit_event_total and apiserver_audit_error_total are counted (the metrics registry's, once it exists). */
  auditMetrics?: AuditMetrics;
  /**
   * The client certificate the aggregator presents to aggregated API servers
   * (`--proxy-client-cert-file`/`--proxy-client-key-file`); none: it presents none.
   */
  proxyClient?: ProxyClientCertificate;
  /** How often the aggregator checks every remote APIService again (upstream 30 s). */
  apiServiceResyncMs?: number;
  now?: () => number;
}

export interface ApiServer {
  port: number;
  registry: Registry;
  /** Graceful stop: readyz fails, in-flight requests finish, watches close. The store stays open. */
  shutdown(): Promise<void>;
}

/** Upper bound on waiting for in-flight requests at shutdown. */
const DRAIN_TIMEOUT_MS = 60_000;

/** Starts serving; resolves when every post-start hook has finished (ready). */
export async function startApiServer(opts: ApiServerOptions): Promise<ApiServer> {
  const now = opts.now ?? Date.now;
  const startedAt = now();
  const { brand, store } = opts;
  // Until the modes are built over the registry, only masters are allowed (reviews say the same).
  const reviewsAuthorizer = unionAuthorizer([privilegedGroupAuthorizer]);
  const issuing = serviceAccountIssuing(opts.authentication ?? {}, opts.keyPem, brand);
  // TokenReview runs the token authenticators, which read the registry: bound once both exist.
  let tokens: TokenAuthenticator | undefined;
  const reviews: ReviewDeps = { authorizer: reviewsAuthorizer, authenticateToken: (token) => reviewToken(tokens, token) };
  // RBAC writes are checked for escalation by the authorizer and the RBAC objects, both built over the registry.
  const rbacIndex = new PolicyIndex();
  const rbacWrites = rbacWriteGuard({ authorizer: () => reviews.authorizer, index: rbacIndex, rbacGroup: rbacGroup(brand) });
  const features = serverFeatures(opts.featureGates);
  const metrics =
    opts.metrics === false
      ? undefined
      : createApiServerMetrics({ ...opts.metrics, currentVersion: { major: Number(SERVED_RELEASE.major), minor: Number(SERVED_RELEASE.minor) } });
  // Before anything starts: a bad policy or audit flag is a start-up error, as upstream.
  // Audit's counters are registered whether or not a policy is set, as upstream's are.
  const auditMetrics = opts.auditMetrics ?? (metrics ? registerAuditMetrics(metrics.registry) : undefined);
  const auditing = opts.audit ? buildAuditing(opts.audit, brand, auditMetrics) : undefined;
  const auditingStopped = auditing ? auditingServerStarted() : () => {};
  let registryRef: Registry | undefined;
  // The registry's storage calls are timed (etcd_request_duration_seconds); the health check's are not.
  const registryStore = metrics
    ? instrumentStore(
        store,
        metrics,
        storageTypes(() => registryRef),
      )
    : store;
  const registry = new Registry(
    servedDefinitions(ALL_RESOURCES, opts.runtimeConfig ?? new Map(), brand),
    brand,
    registryStore,
    { historyMs: opts.watchHistoryMs, progressNotify: features.efficientWatchResumption },
    {
      services: { clusterIPRange: opts.serviceClusterIPRange, nodePortRange: opts.serviceNodePortRange },
      rbacWrites,
      reviews,
      tokens: tokenIssuer(issuing),
    },
  );
  registryRef = registry;
  await registry.startCaches();
  const authorization = authorizationFor(opts.authorization ?? { modes: [] }, registry, brand, rbacIndex);
  reviews.authorizer = authorization.authorizer;
  const { authorizer } = authorization;
  await authorization.start();
  // Upstream registers APF (its filter and its three hooks) only when both the gate and the flag are on.
  const apf =
    features.priorityAndFairness && opts.enablePriorityAndFairness !== false
      ? setUpFlowControl(registry, {
          inFlight: opts.inFlight ?? DEFAULT_IN_FLIGHT,
          requestTimeoutMs: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
          metrics: metrics?.registry,
        })
      : undefined;
  const priority = priorityAdmission(registry);
  // NodeRestriction goes with the Node mode (upstream enables it by flag; see node-restriction.ts).
  const nodeMode = opts.authorization?.modes.includes('Node') ?? false;
  // ServiceAccount admission runs before Priority, as in upstream's plugin order; the webhook
  // plugins come last of their kind, as in upstream's recommended plugin order.
  const serviceAccount = opts.serviceAccountAdmission === false ? [] : [serviceAccountAdmission(registry)];
  const webhooks = webhookAdmission(registry, brand);
  const lifecycle = namespaceLifecycle(registry);
  const admission = admissionChain(
    [lifecycle, ...(nodeMode ? [nodeRestriction(registry)] : []), priority, webhooks.validating],
    [lifecycle, ...serviceAccount, priority, webhooks.mutating],
  );

  const hooks = {
    admissionInitializer: hookCheck('poststarthook/start-kube-apiserver-admission-initializer'),
    startInformers: hookCheck('poststarthook/generic-apiserver-start-informers'),
    bootstrap: hookCheck('poststarthook/bootstrap-controller'),
    rbacBootstrap: hookCheck('poststarthook/rbac/bootstrap-roles'),
    priorityClasses: hookCheck('poststarthook/scheduling/bootstrap-system-priority-classes'),
    eventExpiry: hookCheck('poststarthook/start-event-expiry'),
    authenticationInfo: hookCheck('poststarthook/start-cluster-authentication-info-controller'),
    apiextensionsInformers: hookCheck('poststarthook/start-apiextensions-informers'),
    apiextensionsControllers: hookCheck('poststarthook/start-apiextensions-controllers'),
    crdInformerSynced: hookCheck('poststarthook/crd-informer-synced'),
    aggregatorInformers: hookCheck('poststarthook/start-kube-aggregator-informers'),
    apiServiceRegistration: hookCheck('poststarthook/apiservice-registration-controller'),
    apiServiceAvailable: hookCheck('poststarthook/apiservice-status-available-controller'),
    autoregistration: hookCheck('poststarthook/kube-apiserver-autoregistration'),
  };
  // Set once the aggregator starts (after the router exists): until then nothing is proxied.
  let aggregator: Aggregator | undefined;
  const autoregisterCompletion: HealthCheck = {
    name: 'autoregister-completion',
    check: () => {
      if (aggregator === undefined) throw new Error('missing APIService: the aggregator has not started');
      return aggregator.completion.check();
    },
  };
  const hookList = [...Object.values(hooks), ...(apf?.hooks ?? [])];
  // During the livez grace period an unfinished hook still counts as live (upstream).
  const livezHooks: HealthCheck[] = [...hookList, autoregisterCompletion].map((h) => ({
    name: h.name,
    check: () => (now() - startedAt < opts.livezGracePeriodMs ? undefined : h.check()),
  }));
  const base: HealthCheck[] = [
    { name: 'ping', check: () => {} },
    { name: 'log', check: () => {} },
    opts.storageCheck ?? {
      name: 'storage',
      check: async () => {
        await store.get('/registry/health');
      },
    },
  ];
  let shuttingDown = false;
  let signalShutdown: () => void = () => {};
  const shutdownSignal = new Promise<void>((r) => {
    signalShutdown = r;
  });
  const shutdownCheck: HealthCheck = {
    name: 'shutdown',
    check: () => {
      if (shuttingDown) throw new Error('process is shutting down');
    },
  };
  const health = {
    livez: [...base, ...livezHooks],
    healthz: [...base, ...hookList, autoregisterCompletion],
    readyz: [...base, ...hookList, autoregisterCompletion, shutdownCheck],
  };

  const listener = await listen(
    {
      ...opts.connections,
      certPem: opts.certPem,
      keyPem: opts.keyPem,
      // TLS asks for certificates from every CA an authenticator trusts; each authenticator verifies its own.
      clientCaPem: [opts.clientCaPem, opts.authentication?.requestHeader?.clientCaPem].filter((p) => p !== undefined).join('\n'),
      bindAddress: opts.bindAddress,
      port: opts.port,
    },
    (req, res) => router(req, res),
  );
  const host = opts.bindAddress === '0.0.0.0' || opts.bindAddress === '::' ? '127.0.0.1' : opts.bindAddress;
  const authentication = authenticationFor(opts.authentication ?? {}, opts.clientCaPem, issuing, registry, brand);
  tokens = authentication.tokens;
  const inFlightCounts = metrics ? inFlightMetrics(metrics) : undefined;
  if (metrics) countStoredObjects(metrics, registry);
  const router = createRouter({
    metrics,
    inFlightCounts,
    registry,
    brand,
    admission,
    authenticator: authentication.authenticator,
    issuerDocuments: issuerDocuments(issuing.issuer, issuing.verifyKeys, `${host}:${listener.port}`),
    authorizer,
    requestTimeoutMs: opts.requestTimeoutMs,
    minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds,
    inFlight: opts.inFlight,
    flowControl: apf?.flowControl,
    recordDeprecatedRequest: metrics
      ? (l) =>
          markDeprecatedRequest(metrics, {
            group: l.group,
            version: l.version,
            resource: l.resource,
            subresource: l.subresource,
            removedRelease: l.removed_release,
          })
      : undefined,
    reviews,
    discovery: buildDiscovery(registry, brand, `${host}:${listener.port}`, features.storageVersionHash, () => aggregator?.remote),
    aggregator: { route: (state) => aggregator?.route(state) ?? false },
    version: versionInfo(),
    health,
    shuttingDown: shutdownSignal,
    features,
    audit: auditing,
  });

  // The admission plugins were built over the started caches (webhook configurations,
  // namespaces), and every resource's cache started before them: upstream's first two hooks.
  hooks.admissionInitializer.done();
  hooks.startInformers.done();
  await bootstrapNamespaces(registry);
  const kubernetesService = await startKubernetesService(registry, {
    securePort: listener.port,
    bindAddress: opts.bindAddress,
    serviceClusterIPRange: opts.serviceClusterIPRange,
    intervalMs: opts.endpointReconcileIntervalMs,
  });
  hooks.bootstrap.done();
  // After the namespaces: the policy's Roles live in the system and public namespaces.
  await reconcileBootstrapPolicy(registry);
  hooks.rbacBootstrap.done();
  await bootstrapPriorityClasses(registry);
  hooks.priorityClasses.done();
  await apf?.start();
  const eventsStore = registry.byResource('', 'events');
  let stopExpiry = () => {};
  if (eventsStore && store.expireUnder) {
    // The store expires events itself (etcd leases), whether or not any server runs.
    store.expireUnder(eventsStore.info.keyPrefix, opts.eventTtlMs);
  } else if (eventsStore) {
    stopExpiry = await startEventExpiry({ store, prefix: eventsStore.info.keyPrefix, ttlMs: opts.eventTtlMs, now });
  }
  hooks.eventExpiry.done();
  // After the namespaces: the ConfigMap lives in the system namespace.
  const stopAuthenticationInfo = await startAuthenticationInfo(registry, { clientCaPem: opts.clientCaPem, requestHeader: opts.authentication?.requestHeader });
  hooks.authenticationInfo.done();
  // The aggregator's caches started with the others. It starts before CRDs are served, so that
  // only built-in group versions count as built-in.
  hooks.aggregatorInformers.done();
  aggregator = startAggregator(registry, {
    proxyClient: opts.proxyClient,
    resyncMs: opts.apiServiceResyncMs,
    metrics: metrics ? availabilityMetrics(metrics.registry) : undefined,
  });
  hooks.apiServiceRegistration.done();
  hooks.apiServiceAvailable.done();
  hooks.autoregistration.done();
  // The CRD cache started with the others; the controller serves what each CRD defines.
  hooks.apiextensionsInformers.done();
  const crdController = startCrdController(registry);
  hooks.apiextensionsControllers.done();
  await crdController.synced;
  hooks.crdInformerSynced.done();
  // Ready once every built-in APIService is Available (autoregister-completion); a store that
  // cannot take them (full) fails the start, as the other start-up writes do.
  const started = aggregator;
  await started.registered.catch((e: unknown) => {
    started.stop();
    throw e;
  });

  let stopped: Promise<void> | undefined;
  return {
    port: listener.port,
    registry,
    shutdown() {
      stopped ??= (async () => {
        shuttingDown = true;
        if (opts.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, opts.shutdownDelayMs));
        signalShutdown();
        await kubernetesService.stop();
        stopExpiry();
        stopAuthenticationInfo();
        crdController.stop();
        aggregator?.stop();
        webhooks.stop();
        authorization.stop();
        apf?.stop();
        await listener.close(DRAIN_TIMEOUT_MS);
        // The last requests' events are written or sent before the server says it stopped.
        await auditing?.backend.shutdown();
        auditingStopped();
        registry.stopCaches();
      })();
      return stopped;
    },
  };
}
