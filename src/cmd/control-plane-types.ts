/** The embeddable control plane's options and handle (see startControlPlane in control-plane.ts). */
export interface ControlPlaneOptions {
  /** Data directory (SQLite file, certificates, admin.kubeconfig). Default `./.orch`. */
  dataDir?: string;
  /** TLS port; 0 picks a free port. Default 6443. */
  securePort?: number;
  bindAddress?: string;
  /** Serve Kubernetes' own names (`*.k8s.io`, `kube-system`). */
  kubernetesCompat?: boolean;
  /** `sqlite` (default) or `memory`. */
  storageBackend?: 'sqlite' | 'memory';
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
  /** `<min>-<max>` node ports come from. Default `30000-32767`. */
  serviceNodePortRange?: string;
  /** Feature gates by name (`--feature-gates`), e.g. `{ ServerSideApply: false }`. */
  featureGates?: Record<string, boolean>;
  /** Run the controllers (namespace finalization); false for `orch-apiserver`. Default true. */
  controllers?: boolean;
}

export interface ControlPlane {
  /** `https://127.0.0.1:<port>` */
  url: string;
  port: number;
  kubeconfigPath: string;
  /** PEM material for clients: the cluster CA and the admin client certificate and key. */
  caPem: string;
  adminCertPem: string;
  adminKeyPem: string;
  /** Graceful stop: readyz fails, in-flight requests finish, watches close, store closes. */
  stop(): Promise<void>;
}
