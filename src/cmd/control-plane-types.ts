/** The embeddable control plane's options and handle (see startControlPlane in control-plane.ts). */
import type { MetricsSettings } from '../machinery/metrics.js';
import type { RuntimeConfig } from '../api/runtime-config.js';
import type { RequestHeaderOptions } from '../auth/authn/request-header.js';
import type { OidcOptions } from '../auth/authn/oidc.js';
import type { AuthenticationSettings } from '../server/authentication-config.js';
import type { AuthorizationSettings } from '../server/authorization-config.js';
import type { AuditSettings } from '../server/audit/options.js';
import type { KubeSchedulerConfiguration } from '../scheduler/config/types.js';
import type { RunningScheduler } from '../scheduler/process/start-scheduler.js';
import type { IncomingHttpHeaders } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
/** The etcd a control plane stores in (upstream's --etcd-* flags). */
export interface EtcdOptions {
  /** --etcd-servers: client URLs, e.g. `https://127.0.0.1:2379`. */
  servers: string[];
  /** --etcd-prefix: where the keys live; default `/registry`. */
  prefix?: string;
  /** --etcd-cafile, --etcd-certfile, --etcd-keyfile: TLS to etcd (PEM files). */
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  /** --etcd-healthcheck-timeout in milliseconds; default 2 s. */
  healthcheckTimeoutMs?: number;
}

/**
 * How to start a control plane: each field is one of the `orch` binary's flags (named in its
 * comment), and every field is optional. For tests: `{ storageBackend: 'memory', securePort: 0 }`.
 */
export interface ControlPlaneOptions {
  /** Data directory (SQLite file, certificates, admin.kubeconfig). Default `./.orch`. */
  dataDir?: string;
  /** TLS port; 0 picks a free port. Default 6443. */
  securePort?: number;
  /** Address to listen on (`--bind-address`). Default `127.0.0.1`; `0.0.0.0` or `::` for every interface. */
  bindAddress?: string;
  /** Serve Kubernetes' own names (`*.k8s.io`, `kube-system`). */
  kubernetesCompat?: boolean;
  /** `sqlite` (default), `memory`, or `etcd3` (upstream's name: etcd v3, see `etcd`). */
  storageBackend?: 'sqlite' | 'memory' | 'etcd3';
  /** Where etcd is, with `storageBackend: 'etcd3'` (upstream's --etcd-* flags). */
  etcd?: EtcdOptions;
  /**
   * Bytes the store may hold before writes are refused as etcd refuses them
   * (`etcdserver: mvcc: database space exceeded`). Default 2 GiB; negative: no quota.
   */
  quotaBackendBytes?: number;
  /** Event time to live in milliseconds. Default 1 hour. */
  eventTtlMs?: number;
  /** How often history is compacted, in milliseconds. Default 5 minutes. */
  compactionIntervalMs?: number;
  /** Log verbosity (`-v`). */
  verbosity?: number;
  /** Directory of the generated certificates; default `<dataDir>/pki`. */
  certDir?: string;
  /** Serving certificate and key (PEM) to use instead of the generated ones. */
  tlsCertPem?: string;
  tlsKeyPem?: string;
  /** How long /readyz fails on shutdown before the listener closes. Default 0. */
  shutdownDelayMs?: number;
  /** Time after start during which unfinished post-start hooks count as live. Default 0. */
  livezGracePeriodMs?: number;
  /** IPv4 CIDR Service cluster IPs come from. Default `10.0.0.0/24`. */
  serviceClusterIPRange?: string;
  /** How often the API server's own Service and endpoints are reconciled. Default 10 s (upstream). */
  endpointReconcileIntervalMs?: number;
  /** `<min>-<max>` node ports come from. Default `30000-32767`. */
  serviceNodePortRange?: string;
  /** Feature gates by name (`--feature-gates`), e.g. `{ ServerSideApply: false }`. */
  featureGates?: Record<string, boolean>;
  /** --show-hidden-metrics-for-version, --disabled-metrics, --allow-metric-labels; false: no metrics (to measure their cost). */
  metrics?: Omit<MetricsSettings, 'currentVersion'> | false;
  /** `--runtime-config` pairs (key -> value, '' for a bare key), already checked against the served APIs. */
  runtimeConfig?: RuntimeConfig;
  /** CA bundle (PEM) client certificates are verified against (`--client-ca-file`). Default: the generated CA. */
  clientCaPem?: string;
  /** Static token file (`--token-auth-file`). */
  tokenAuthFile?: string;
  /** Bootstrap tokens authenticate (`--enable-bootstrap-token-auth`). Default false. */
  enableBootstrapTokenAuth?: boolean;
  /** Webhook token authentication: the webhook's kubeconfig, TokenReview version (default v1beta1), cache TTL (default 2m). */
  authenticationTokenWebhook?: { kubeconfigPath: string; version: 'v1' | 'v1beta1'; cacheTtlMs: number };
  /** Service-account tokens: key files, signing key, issuers, API audiences, lookup, longest lifetime (see the flags). */
  serviceAccounts?: AuthenticationSettings['serviceAccounts'];
  /** OpenID Connect ID tokens (the `--oidc-*` flags). */
  oidc?: OidcOptions;
  /**
   * The authenticating proxy (`--requestheader-*`): its CA, allowed CNs and header names.
   * Default, when neither this nor `proxyClient` is given: the generated front-proxy CA with
   * kubeadm's settings (CN `front-proxy-client`, `X-Remote-User`, `X-Remote-Group`, `X-Remote-Extra-`).
   */
  requestHeader?: RequestHeaderOptions;
  /**
   * The client certificate and key (PEM) the aggregator presents to aggregated API servers
   * (`--proxy-client-cert-file`/`--proxy-client-key-file`). Default, when neither this nor
   * `requestHeader` is given: front-proxy-client, generated with its CA in the certificate directory.
   */
  proxyClient?: { certPem: string; keyPem: string };
  /**
   * Requests without credentials are `system:anonymous` (authorization decides) instead of 401
   * (`--anonymous-auth`). Default true, as upstream; off under AlwaysAllow.
   */
  anonymousAuth?: boolean;
  /**
   * Authorization modes after `system:masters` (`--authorization-mode` and its files). Default
   * `Node,RBAC`, what every real cluster sets (upstream's bare default is AlwaysAllow).
   */
  authorization?: AuthorizationSettings;
  /** How long a non-long-running request may take before 504 (`--request-timeout`), in ms. Default 60 000; 0: none. */
  requestTimeoutMs?: number;
  /** Watches without timeoutSeconds end after 1-2x this many seconds (`--min-request-timeout`). Default 1800. */
  minRequestTimeoutSeconds?: number;
  /** In-flight limits before 429 (`--max-requests-inflight`, `--max-mutating-requests-inflight`). Default 400 / 200; 0: none. */
  inFlight?: { maxRequestsInflight: number; maxMutatingRequestsInflight: number };
  /** API Priority and Fairness in place of the in-flight limits (`--enable-priority-and-fairness`, with the gate). Default true. */
  enablePriorityAndFairness?: boolean;
  /** Auditing: the policy file and the log and webhook backends (the `--audit-*` flags). Default: none. */
  audit?: AuditSettings;
  /**
   * The CA the csrsigning controller signs CertificateSigningRequests with
   * (`--cluster-signing-cert-file`/`--cluster-signing-key-file`). Default: the generated CA.
   */
  clusterSigning?: { certFile: string; keyFile: string };
  /** Run the controller manager's controllers in-process; false for `orch-apiserver`. Default true. */
  controllers?: boolean;
  /** Which controllers, as orch-controller-manager's `--controllers` (`*`, `name`, `-name`). Default `['*']`. */
  controllerNames?: string[];
  /** The ServiceAccount admission plugin (default account, token volume). Default true, as upstream. */
  serviceAccountAdmission?: boolean;
  /** Run the scheduler in-process, through client/ as a separate process would (`--disable-scheduler` turns it off). Default: as `controllers`. */
  scheduler?: boolean;
  /**
   * Whose credentials the in-process scheduler uses: `scheduler` is its own client certificate
   * (user `system:orch-scheduler`, compat `system:kube-scheduler`, no groups), what upstream
   * runs, authorized by the bootstrap policy's scheduler role; `admin` is the admin certificate,
   * for clusters whose authorization modes grant the scheduler nothing. Default `scheduler`.
   */
  schedulerIdentity?: 'scheduler' | 'admin';
  /** The in-process scheduler's client rate limit; default upstream's clientConnection (50 qps, burst 100). */
  schedulerClientConnection?: { qps: number; burst: number };
  /** The in-process scheduler's profiles and tuning (KubeSchedulerConfiguration); default upstream's defaults. */
  schedulerConfig?: KubeSchedulerConfiguration;
}

/** Options of {@link ControlPlane.request}. */
export interface RawRequestOptions {
  /** Sent as is when a string or bytes, as JSON otherwise. */
  body?: unknown;
  /**
   * Extra request headers. `content-type` defaults to `application/json`, for PATCH to
   * `application/merge-patch+json`; `accept` to `application/json`.
   */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** What {@link ControlPlane.request} answers: the response exactly as the server sent it. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text. */
  body: string;
  /** The body parsed as JSON; throws when it is not JSON. */
  json<T = unknown>(): T;
}

/** A namespace of one test's own, from {@link ControlPlane.createNamespace}. */
export interface TestNamespace {
  /** The generated name, e.g. `test-x7k2p`. */
  readonly name: string;
  /**
   * Deletes the namespace and everything in it and resolves once it is gone: through the API
   * and the namespace controller when it runs, from the store directly when it does not (or
   * has not finished within 10 s). Calling it again returns the same promise.
   */
  dispose(): Promise<void>;
  /** `await using ns = await cp.createNamespace()` disposes at the end of the block. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** A running control plane, from {@link startControlPlane}. */
export interface ControlPlane {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** The port it listens on (the one picked when `securePort` was 0). */
  port: number;
  /** The admin kubeconfig it wrote (`<dataDir>/admin.kubeconfig`). */
  kubeconfigPath: string;
  /** That kubeconfig's contents (YAML, credentials embedded), e.g. for `KUBECONFIG`-less clients. */
  kubeconfig: string;
  /** PEM material for clients: the cluster CA and the admin client certificate and key (group `system:masters`). */
  caPem: string;
  adminCertPem: string;
  adminKeyPem: string;
  /** The in-process scheduler, when running (see `scheduler`). */
  scheduler?: RunningScheduler;
  /**
   * A `KubeConfig` of `@kubernetes/client-node` loaded with the admin kubeconfig, ready for
   * `kc.makeApiClient(CoreV1Api)`. That package is an optional peer dependency: install it to
   * use this; without it the promise rejects saying so.
   */
  kubeConfig(): Promise<KubeConfig>;
  /**
   * One raw HTTPS request as the admin, e.g. `await cp.request('GET', '/api/v1/namespaces')`.
   * Never rejects on an HTTP error status: the status, headers and body are returned as sent.
   */
  request(method: string, path: string, options?: RawRequestOptions): Promise<RawResponse>;
  /**
   * Creates a namespace with a unique name (`<prefix><5 random characters>`, prefix default
   * `test-`) for one test; dispose it (or `await using`) to delete it with everything in it.
   */
  createNamespace(prefix?: string): Promise<TestNamespace>;
  /**
   * Returns every stored object to its state when start-up finished, in milliseconds, without a
   * restart: objects created since are deleted, changed or deleted ones are written back. These
   * are ordinary writes at new revisions (resourceVersions never go backwards), so watchers and
   * informers see them as events. Controllers react as to any change. Call it between tests,
   * not while requests of a test are still running.
   */
  reset(): Promise<{ deleted: number; restored: number }>;
  /** Graceful stop: readyz fails, in-flight requests finish, watches close, store closes. Idempotent. */
  stop(): Promise<void>;
}
