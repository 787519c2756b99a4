/** The API server's command-line flags (upstream names and defaults), shared by both binaries. */
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, DEFAULT_SERVICE_NODE_PORT_RANGE, parseClusterIPRange, parseNodePortRange } from '../registry/service/ranges.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { checkPair } from '../pki/check.js';
import { DEFAULT_QUOTA_BACKEND_BYTES } from '../storage/limits.js';
import { parseDuration } from '../machinery/duration.js';
import { collect, duration, flagValue, goBoolFlag, integer, list, showDurationDefaults } from './flag-values.js';
import { versionInfo } from '../server/version.js';
import type { ControlPlaneOptions } from './control-plane-types.js';
import { type OidcOptions, validateOidcFlags } from '../auth/authn/oidc.js';
import { parseFeatureGates } from './feature-gates.js';
import { knownFeatures } from '../machinery/feature-gate.js';
import { type MetricsSettings, validateShowHiddenMetricsVersion } from '../machinery/metrics.js';
import { addLoggingFlags, addMetricsFlags, showPflagDefaults } from './component-flags.js';
import type { LoggingFlags } from './scheduler-options.js';
import { SERVED_RELEASE } from '../server/version.js';
import { API_SERVER_FEATURES } from '../server/feature-gates.js';
import { parseRuntimeConfig, servedDefinitions } from '../api/runtime-config.js';
import { ALL_RESOURCES } from '../api/catalogue.js';
import { brandFor } from '../machinery/brand.js';
import { addAuditFlags, type AuditFlags, auditFromFlags } from './audit-flags.js';
import {
  type AuthorizationMode,
  type AuthorizationSettings,
  DEFAULT_AUTHORIZATION_MODES,
  validateAuthorizationSettings,
} from '../server/authorization-config.js';

function featureGates(value: string, previous: Record<string, boolean> | undefined): Record<string, boolean> {
  try {
    return parseFeatureGates(value, previous);
  } catch (e) {
    throw new InvalidArgumentError(e instanceof Error ? e.message : String(e));
  }
}

/** Repeated --runtime-config flags add to one map, as upstream's ConfigurationMap. */
function runtimeConfigFlag(value: string, previous: Map<string, string> | undefined): Map<string, string> {
  return parseRuntimeConfig(value, previous ?? new Map());
}

const port = integer(0, 65535, 'a port number from 0 to 65535 (0 picks a free port)');
// etcd's int64 flag: 0 means the default (2 GiB) and a negative value no quota at all.
const quotaBytes = integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'a number of bytes');

const ipAddress = flagValue((value: string): string => {
  if (isIP(value) === 0) throw new Error('want an IP address such as 127.0.0.1, 0.0.0.0 or ::');
  return value;
});

const clusterIPRange = flagValue((value: string): string => {
  parseClusterIPRange(value);
  return value;
});

const nodePortRange = flagValue((value: string): string => {
  parseNodePortRange(value);
  return value;
});
const count = integer(0, Number.MAX_SAFE_INTEGER, 'a whole number, 0 or more');

/** A command with every API server flag, each with its default in --help. */
export function apiServerCommand(name: string, description: string): Command {
  const cmd = addAuditFlags(new Command(name))
    .description(description)
    .version(`orch ${versionInfo().gitVersion}`, '--version', 'print version information and quit')
    .option('--data-dir <dir>', 'directory of the embedded store, certificates and admin.kubeconfig', './.orch')
    .option('--secure-port <port>', 'HTTPS port (0 picks a free port)', port, 6443)
    .option('--bind-address <ip>', 'address to listen on', ipAddress, '127.0.0.1')
    .option('--cert-dir <dir>', 'directory of the generated certificates (default <data-dir>/pki)')
    .option('--tls-cert-file <file>', 'serving certificate (PEM) instead of the generated one')
    .option('--tls-private-key-file <file>', 'key of --tls-cert-file (PEM)')
    .addOption(
      new Option('--storage-backend <backend>', 'storage backend (etcd3: the etcd at --etcd-servers)').choices(['sqlite', 'memory', 'etcd3']).default('sqlite'),
    )
    .option('--etcd-servers <urls>', 'etcd client URLs, comma-separated (with --storage-backend=etcd3)', collect, [])
    .option('--etcd-prefix <prefix>', 'the prefix of every key orch stores in etcd', '/registry')
    .option('--etcd-cafile <file>', 'CA bundle etcd serving certificates are verified against')
    .option('--etcd-certfile <file>', 'client certificate (PEM) presented to etcd')
    .option('--etcd-keyfile <file>', 'key of --etcd-certfile (PEM)')
    .option('--etcd-healthcheck-timeout <duration>', 'how long the etcd health check waits for etcd', duration, parseDuration('2s'))
    .option(
      '--quota-backend-bytes <bytes>',
      "stored bytes past which writes are refused as etcd refuses them ('database space exceeded'); 0: the default, negative: no quota",
      quotaBytes,
      DEFAULT_QUOTA_BACKEND_BYTES,
    )
    .option('--event-ttl <duration>', 'how long events are kept after their last write', duration, parseDuration('1h'))
    .option('--etcd-compaction-interval <duration>', 'how often history older than this is compacted', duration, parseDuration('5m'))
    .option('--service-cluster-ip-range <cidr>', 'IPv4 range Service cluster IPs are allocated from', clusterIPRange, DEFAULT_SERVICE_CLUSTER_IP_RANGE)
    .option('--service-node-port-range <range>', 'port range NodePort Services are allocated from', nodePortRange, DEFAULT_SERVICE_NODE_PORT_RANGE)
    .option('--kubernetes-compat', "serve Kubernetes' own names (*.k8s.io, kube-system)", false)
    .option('--livez-grace-period <duration>', 'time after start during which unfinished post-start hooks count as live', duration, 0)
    .option('--shutdown-delay-duration <duration>', 'time /readyz fails before the server stops listening on SIGTERM', duration, 0)
    .option('--client-ca-file <file>', 'CA bundle client certificates are verified against (default: the generated CA)')
    .option('--token-auth-file <file>', 'static bearer tokens: CSV of token, user name, uid and an optional quoted group list')
    .option('--enable-bootstrap-token-auth [bool]', 'bootstrap tokens (Secrets bootstrap-token-<id> in the system namespace) authenticate', goBoolFlag, false)
    .option('--cluster-signing-cert-file <file>', 'PEM CA certificate the csrsigning controller issues certificates with (default: the generated CA)')
    .option('--cluster-signing-key-file <file>', 'PEM PKCS#8 P-256 key of --cluster-signing-cert-file')
    .option('--authentication-token-webhook-config-file <file>', 'kubeconfig naming the TokenReview webhook bearer tokens are sent to')
    .addOption(
      new Option('--authentication-token-webhook-version <version>', 'TokenReview version sent to the webhook').choices(['v1', 'v1beta1']).default('v1beta1'),
    )
    .option('--authentication-token-webhook-cache-ttl <duration>', 'how long webhook answers are cached', duration, parseDuration('2m'))
    .option('--service-account-key-file <file>', 'PEM file of keys that verify service-account tokens (repeatable; default: the serving key)', collect, [])
    .option('--service-account-signing-key-file <file>', 'private key TokenRequest signs service-account tokens with (default: the serving key)')
    .option(
      '--service-account-issuer <url>',
      'issuer of service-account tokens (repeatable: the first signs, all are accepted; default https://orch.default.svc.cluster.local)',
      collect,
      [],
    )
    .option('--api-audiences <audiences>', 'audiences a bound token must name one of (comma-separated; default: the issuers)', list, [])
    .option('--service-account-lookup [bool]', 'legacy service-account tokens must still match their Secret and ServiceAccount', goBoolFlag, true)
    .option('--service-account-max-token-expiration <duration>', 'longest lifetime TokenRequest grants (0: no limit)', duration, 0)
    .option('--oidc-issuer-url <url>', 'OpenID Connect issuer (https) whose ID tokens authenticate')
    .option('--oidc-client-id <id>', 'the client id ID tokens must be issued for (with --oidc-issuer-url)')
    .option('--oidc-ca-file <file>', 'CA bundle the issuer is verified with (default: the system roots)')
    .option('--oidc-username-claim <claim>', 'claim holding the user name', 'sub')
    .option('--oidc-username-prefix <prefix>', "prefix of user names (default '<issuer>#' unless the claim is email; '-' for none)")
    .option('--oidc-groups-claim <claim>', 'claim holding the groups (a string or a list)')
    .option('--oidc-groups-prefix <prefix>', 'prefix of group names')
    .option('--oidc-signing-algs <algs>', 'accepted signing algorithms (comma-separated)', list, [])
    .option('--oidc-required-claim <key=value>', 'a claim the ID token must hold with this value (repeatable)', list, [])
    .option('--requestheader-client-ca-file <file>', 'CA of the authenticating proxy whose certificate lets it name the user in request headers')
    .option(
      '--requestheader-allowed-names <names>',
      'client certificate common names allowed to act as the proxy (comma-separated; empty: any from the CA)',
      list,
      [],
    )
    .option('--requestheader-username-headers <headers>', 'request headers holding the user name, first non-empty wins (e.g. X-Remote-User)', list, [])
    .option('--requestheader-group-headers <headers>', 'request headers holding groups (e.g. X-Remote-Group)', list, [])
    .option('--requestheader-extra-headers-prefix <prefixes>', 'request header prefixes of extra user attributes (e.g. X-Remote-Extra-)', list, [])
    .option(
      '--proxy-client-cert-file <file>',
      'client certificate the aggregator presents to aggregated API servers (default without any --requestheader-* flag: front-proxy-client, generated in the certificate directory)',
    )
    .option('--proxy-client-key-file <file>', 'private key of --proxy-client-cert-file')
    .option(
      '--anonymous-auth [bool]',
      'requests without credentials are system:anonymous (authorization decides: the public-info role lets them read /healthz, /livez, /readyz, /version) instead of 401; off under AlwaysAllow',
      goBoolFlag,
      true,
    )
    .option(
      '--authorization-mode <modes>',
      "ordered modes that authorize requests, the first allow or deny is final: AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC, Node (default Node,RBAC, what real clusters set; upstream's bare default is AlwaysAllow)",
      list,
    )
    .option('--authorization-policy-file <file>', 'ABAC policy: one JSON policy object per line (with --authorization-mode ABAC)')
    .option('--authorization-webhook-config-file <file>', 'kubeconfig naming the SubjectAccessReview webhook (with --authorization-mode Webhook)')
    .addOption(
      new Option('--authorization-webhook-version <version>', 'SubjectAccessReview version sent to the webhook').choices(['v1', 'v1beta1']).default('v1beta1'),
    )
    .option('--authorization-webhook-cache-authorized-ttl <duration>', "how long the webhook's allow answers are cached", duration, parseDuration('5m'))
    .option('--authorization-webhook-cache-unauthorized-ttl <duration>', "how long the webhook's other answers are cached", duration, parseDuration('30s'))
    .option('--request-timeout <duration>', 'longest time a non-long-running request may take before 504 (0: none)', duration, parseDuration('1m'))
    .option('--min-request-timeout <seconds>', 'watches without timeoutSeconds end after a random time between this and twice this', count, 1800)
    .option('--max-requests-inflight <n>', 'read-only requests served at once before 429 (watches and system:masters not counted; 0: no limit)', count, 400)
    .option('--max-mutating-requests-inflight <n>', 'mutating requests served at once before 429 (0: no limit)', count, 200)
    .option(
      '--enable-priority-and-fairness [bool]',
      "API Priority and Fairness (with the APIPriorityAndFairness gate) replaces the in-flight limits: requests are classified by FlowSchema and queued fairly per priority level, whose seats are shares of the two limits' sum",
      goBoolFlag,
      true,
    )
    .option(
      '--runtime-config <pairs>',
      'comma-separated <group>/<version>[=true|false] (or <group>/<version>/<resource>, api/all, api/ga, api/beta, api/alpha =true|false) switching APIs on or off; alpha versions are off by default',
      runtimeConfigFlag,
    )
    .option(
      '--feature-gates <gates>',
      `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n${knownFeatures(API_SERVER_FEATURES).join('\n')}`,
      featureGates,
    );
  // The metrics and klog flags are the components' own (component-flags.ts), defined once.
  addMetricsFlags(cmd);
  addLoggingFlags(cmd);
  showPflagDefaults(cmd, ['--disabled-metrics', '--allow-metric-labels', '--vmodule', '--log-backtrace-at', '--log-flush-frequency']);
  showDurationDefaults(cmd);
  return cmd;
}

interface ParsedFlags extends LoggingFlags, AuditFlags {
  showHiddenMetricsForVersion?: string;
  disabledMetrics: string[];
  allowMetricLabels: Map<string, string[]>;
  dataDir: string;
  securePort: number;
  bindAddress: string;
  certDir?: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  storageBackend: 'sqlite' | 'memory' | 'etcd3';
  etcdServers: string[];
  etcdPrefix: string;
  etcdCafile?: string;
  etcdCertfile?: string;
  etcdKeyfile?: string;
  etcdHealthcheckTimeout: number;
  quotaBackendBytes: number;
  eventTtl: number;
  etcdCompactionInterval: number;
  kubernetesCompat: boolean;
  serviceClusterIpRange: string;
  serviceNodePortRange: string;
  livezGracePeriod: number;
  shutdownDelayDuration: number;
  featureGates?: Record<string, boolean>;
  runtimeConfig?: Map<string, string>;
  clientCaFile?: string;
  tokenAuthFile?: string;
  enableBootstrapTokenAuth: boolean;
  clusterSigningCertFile?: string;
  clusterSigningKeyFile?: string;
  oidcIssuerUrl?: string;
  oidcClientId?: string;
  oidcCaFile?: string;
  oidcUsernameClaim: string;
  oidcUsernamePrefix?: string;
  oidcGroupsClaim?: string;
  oidcGroupsPrefix?: string;
  oidcSigningAlgs: string[];
  oidcRequiredClaim: string[];
  serviceAccountKeyFile: string[];
  serviceAccountSigningKeyFile?: string;
  serviceAccountIssuer: string[];
  apiAudiences: string[];
  serviceAccountLookup: boolean;
  serviceAccountMaxTokenExpiration: number;
  authenticationTokenWebhookConfigFile?: string;
  authenticationTokenWebhookVersion: 'v1' | 'v1beta1';
  authenticationTokenWebhookCacheTtl: number;
  requestheaderClientCaFile?: string;
  requestheaderAllowedNames: string[];
  requestheaderUsernameHeaders: string[];
  requestheaderGroupHeaders: string[];
  requestheaderExtraHeadersPrefix: string[];
  proxyClientCertFile?: string;
  proxyClientKeyFile?: string;
  anonymousAuth: boolean;
  authorizationMode?: string[];
  authorizationPolicyFile?: string;
  authorizationWebhookConfigFile?: string;
  authorizationWebhookVersion: 'v1' | 'v1beta1';
  authorizationWebhookCacheAuthorizedTtl: number;
  authorizationWebhookCacheUnauthorizedTtl: number;
  requestTimeout: number;
  minRequestTimeout: number;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  enablePriorityAndFairness: boolean;
}

/** The OIDC authenticator's settings from the --oidc-* flags (undefined without an issuer); throws upstream's errors. */
function oidcFromFlags(flags: ParsedFlags): OidcOptions | undefined {
  const invalid = validateOidcFlags(flags.oidcIssuerUrl, flags.oidcClientId);
  if (invalid) throw new Error(invalid);
  if (!flags.oidcIssuerUrl || !flags.oidcClientId) return undefined;
  const required = new Map<string, string>();
  for (const pair of flags.oidcRequiredClaim) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--oidc-required-claim ${JSON.stringify(pair)} must be key=value`);
    required.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return {
    issuerUrl: flags.oidcIssuerUrl,
    clientId: flags.oidcClientId,
    caPem: flags.oidcCaFile ? readFileSync(flags.oidcCaFile, 'utf8') : undefined,
    usernameClaim: flags.oidcUsernameClaim,
    usernamePrefix: flags.oidcUsernamePrefix,
    groupsClaim: flags.oidcGroupsClaim,
    groupsPrefix: flags.oidcGroupsPrefix,
    signingAlgs: flags.oidcSigningAlgs.length > 0 ? flags.oidcSigningAlgs : ['RS256'],
    requiredClaims: required,
  };
}

/** The authorization settings of the --authorization-* flags; throws upstream's validation errors. */
function authorizationFromFlags(flags: ParsedFlags): AuthorizationSettings {
  const modes = flags.authorizationMode ?? [...DEFAULT_AUTHORIZATION_MODES];
  const errors = validateAuthorizationSettings({ modes, policyFile: flags.authorizationPolicyFile, webhookConfigFile: flags.authorizationWebhookConfigFile });
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return {
    modes: modes as AuthorizationMode[],
    policyFile: flags.authorizationPolicyFile,
    webhook: flags.authorizationWebhookConfigFile
      ? {
          kubeconfigPath: flags.authorizationWebhookConfigFile,
          version: flags.authorizationWebhookVersion,
          authorizedTtlMs: flags.authorizationWebhookCacheAuthorizedTtl,
          unauthorizedTtlMs: flags.authorizationWebhookCacheUnauthorizedTtl,
        }
      : undefined,
  };
}

/** Control-plane options from parsed flags; reads the TLS files when given. */
export function optionsFromFlags(flags: ParsedFlags): ControlPlaneOptions {
  if ((flags.tlsCertFile === undefined) !== (flags.tlsPrivateKeyFile === undefined)) {
    throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
  }
  const tls = flags.tlsCertFile && flags.tlsPrivateKeyFile ? readServingPair(flags.tlsCertFile, flags.tlsPrivateKeyFile) : undefined;
  return {
    dataDir: flags.dataDir,
    securePort: flags.securePort,
    bindAddress: flags.bindAddress,
    certDir: flags.certDir,
    tlsCertPem: tls?.certPem,
    tlsKeyPem: tls?.keyPem,
    storageBackend: flags.storageBackend,
    etcd:
      flags.storageBackend === 'etcd3'
        ? {
            servers: flags.etcdServers,
            prefix: flags.etcdPrefix,
            caFile: flags.etcdCafile,
            certFile: flags.etcdCertfile,
            keyFile: flags.etcdKeyfile,
            healthcheckTimeoutMs: flags.etcdHealthcheckTimeout,
          }
        : undefined,
    quotaBackendBytes: flags.quotaBackendBytes,
    eventTtlMs: flags.eventTtl,
    compactionIntervalMs: flags.etcdCompactionInterval,
    kubernetesCompat: flags.kubernetesCompat,
    serviceClusterIPRange: flags.serviceClusterIpRange,
    serviceNodePortRange: flags.serviceNodePortRange,
    livezGracePeriodMs: flags.livezGracePeriod,
    shutdownDelayMs: flags.shutdownDelayDuration,
    verbosity: flags.v,
    clientCaPem: flags.clientCaFile ? readFileSync(flags.clientCaFile, 'utf8') : undefined,
    tokenAuthFile: flags.tokenAuthFile,
    anonymousAuth: flags.anonymousAuth,
    authorization: authorizationFromFlags(flags),
    enableBootstrapTokenAuth: flags.enableBootstrapTokenAuth,
    clusterSigning: clusterSigningFromFlags(flags),
    oidc: oidcFromFlags(flags),
    serviceAccounts: {
      keyFiles: flags.serviceAccountKeyFile,
      signingKeyFile: flags.serviceAccountSigningKeyFile,
      issuers: flags.serviceAccountIssuer,
      apiAudiences: flags.apiAudiences,
      lookup: flags.serviceAccountLookup,
      maxTokenExpirationSeconds: Math.floor(flags.serviceAccountMaxTokenExpiration / 1000),
    },
    authenticationTokenWebhook: flags.authenticationTokenWebhookConfigFile
      ? {
          kubeconfigPath: flags.authenticationTokenWebhookConfigFile,
          version: flags.authenticationTokenWebhookVersion,
          cacheTtlMs: flags.authenticationTokenWebhookCacheTtl,
        }
      : undefined,
    requestHeader: flags.requestheaderClientCaFile
      ? {
          clientCaPem: readFileSync(flags.requestheaderClientCaFile, 'utf8'),
          allowedNames: flags.requestheaderAllowedNames,
          usernameHeaders: flags.requestheaderUsernameHeaders,
          groupHeaders: flags.requestheaderGroupHeaders,
          extraHeaderPrefixes: flags.requestheaderExtraHeadersPrefix,
        }
      : undefined,
    proxyClient: proxyClientFromFlags(flags),
    requestTimeoutMs: flags.requestTimeout,
    minRequestTimeoutSeconds: flags.minRequestTimeout,
    inFlight: { maxRequestsInflight: flags.maxRequestsInflight, maxMutatingRequestsInflight: flags.maxMutatingRequestsInflight },
    enablePriorityAndFairness: flags.enablePriorityAndFairness,
    metrics: metricsFromFlags(flags),
    audit: auditFromFlags(flags),
    ...(flags.featureGates ? { featureGates: flags.featureGates } : {}),
    ...(flags.runtimeConfig ? { runtimeConfig: checkedRuntimeConfig(flags.runtimeConfig, flags.kubernetesCompat) } : {}),
  };
}

/** The metrics settings of the --*-metric* flags; a --show-hidden-metrics-for-version other than the previous minor is upstream's error. */
function metricsFromFlags(flags: ParsedFlags): Omit<MetricsSettings, 'currentVersion'> {
  const invalid = validateShowHiddenMetricsVersion(
    { major: Number(SERVED_RELEASE.major), minor: Number(SERVED_RELEASE.minor) },
    flags.showHiddenMetricsForVersion,
  );
  if (invalid) throw new Error(invalid);
  return { showHiddenMetricsForVersion: flags.showHiddenMetricsForVersion, disabledMetrics: flags.disabledMetrics, allowListedLabels: flags.allowMetricLabels };
}

/** --runtime-config checked against what this server serves: a bad key or value stops start-up here. */
function checkedRuntimeConfig(config: Map<string, string>, kubernetesCompat: boolean): Map<string, string> {
  try {
    servedDefinitions(ALL_RESOURCES, config, brandFor(kubernetesCompat));
  } catch (e) {
    throw new Error(`--runtime-config: ${e instanceof Error ? e.message : String(e)}`);
  }
  return config;
}

/** The serving pair of --tls-cert-file and --tls-private-key-file, checked to be a certificate and its key. */
function readServingPair(certFile: string, keyFile: string): { certPem: string; keyPem: string } {
  const read = (file: string, flag: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      throw new Error(`cannot read ${flag} ${file} (${e instanceof Error ? e.message : String(e)}): give the path of a readable PEM file`);
    }
  };
  const certPem = read(certFile, '--tls-cert-file');
  const keyPem = read(keyFile, '--tls-private-key-file');
  checkPair(certFile, certPem, keyFile, keyPem, 'give --tls-cert-file a PEM certificate and --tls-private-key-file its PEM key');
  return { certPem, keyPem };
}

/** The aggregator's client pair: both files or neither, checked to be a certificate and its key. */
function proxyClientFromFlags(flags: ParsedFlags): ControlPlaneOptions['proxyClient'] {
  const { proxyClientCertFile: certFile, proxyClientKeyFile: keyFile } = flags;
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) throw new Error('--proxy-client-cert-file and --proxy-client-key-file must be given together');
  const certPem = readFileSync(certFile, 'utf8');
  const keyPem = readFileSync(keyFile, 'utf8');
  checkPair(certFile, certPem, keyFile, keyPem, 'give --proxy-client-cert-file a PEM certificate and --proxy-client-key-file its PEM key');
  return { certPem, keyPem };
}

/** Both signing files or neither: upstream refuses one without the other. */
function clusterSigningFromFlags(flags: ParsedFlags): ControlPlaneOptions['clusterSigning'] {
  const { clusterSigningCertFile: certFile, clusterSigningKeyFile: keyFile } = flags;
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) throw new Error('cannot specify only one of --cluster-signing-cert-file and --cluster-signing-key-file');
  return { certFile, keyFile };
}
