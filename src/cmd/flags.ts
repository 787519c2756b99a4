/** The API server's command-line flags (upstream names and defaults), shared by both binaries. */
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, DEFAULT_SERVICE_NODE_PORT_RANGE } from '../registry/service/ranges.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { parseDuration } from '../machinery/duration.js';
import { parseBoolError, parseGoBool } from '../machinery/go-bool.js';
import type { ControlPlaneOptions } from './control-plane-types.js';
import { parseFeatureGates } from './feature-gates.js';

function duration(value: string): number {
  return parseDuration(value);
}

function featureGates(value: string, previous: Record<string, boolean> | undefined): Record<string, boolean> {
  try {
    return parseFeatureGates(value, previous);
  } catch (e) {
    throw new InvalidArgumentError(e instanceof Error ? e.message : String(e));
  }
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`invalid port ${value}`);
  return n;
}

/** A Go-style boolean flag: bare means true, else strconv.ParseBool's spellings. */
function goBoolFlag(value: string | undefined): boolean {
  if (value === undefined) return true;
  const b = parseGoBool(value);
  if (b === undefined) throw new InvalidArgumentError(parseBoolError(value));
  return b;
}

/** A pflag string slice: comma-separated, repeatable. */
function list(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').filter((v) => v !== '')];
}

function count(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError(`invalid value ${JSON.stringify(value)}: a non-negative integer is required`);
  return n;
}

/** A command with every API server flag, each with its default in --help. */
export function apiServerCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .option('--data-dir <dir>', 'directory of the embedded store, certificates and admin.kubeconfig', './.orch')
    .option('--secure-port <port>', 'HTTPS port (0 picks a free port)', port, 6443)
    .option('--bind-address <ip>', 'address to listen on', '127.0.0.1')
    .option('--cert-dir <dir>', 'directory of the generated certificates (default <data-dir>/pki)')
    .option('--tls-cert-file <file>', 'serving certificate (PEM) instead of the generated one')
    .option('--tls-private-key-file <file>', 'key of --tls-cert-file (PEM)')
    .addOption(new Option('--storage-backend <backend>', 'storage backend').choices(['sqlite', 'memory']).default('sqlite'))
    .option('--event-ttl <duration>', 'how long events are kept after their last write', duration, parseDuration('1h'))
    .option('--etcd-compaction-interval <duration>', 'how often history older than this is compacted', duration, parseDuration('5m'))
    .option('--service-cluster-ip-range <cidr>', 'IPv4 range Service cluster IPs are allocated from', DEFAULT_SERVICE_CLUSTER_IP_RANGE)
    .option('--service-node-port-range <range>', 'port range NodePort Services are allocated from', DEFAULT_SERVICE_NODE_PORT_RANGE)
    .option('--kubernetes-compat', "serve Kubernetes' own names (*.k8s.io, kube-system)", false)
    .option('--livez-grace-period <duration>', 'time after start during which unfinished post-start hooks count as live', duration, 0)
    .option('--shutdown-delay-duration <duration>', 'time /readyz fails before the server stops listening on SIGTERM', duration, 0)
    .option('--client-ca-file <file>', 'CA bundle client certificates are verified against (default: the generated CA)')
    .option('--token-auth-file <file>', 'static bearer tokens: CSV of token, user name, uid and an optional quoted group list')
    .option('--enable-bootstrap-token-auth [bool]', 'bootstrap tokens (Secrets bootstrap-token-<id> in the system namespace) authenticate', goBoolFlag, false)
    .option('--authentication-token-webhook-config-file <file>', 'kubeconfig naming the TokenReview webhook bearer tokens are sent to')
    .addOption(
      new Option('--authentication-token-webhook-version <version>', 'TokenReview version sent to the webhook').choices(['v1', 'v1beta1']).default('v1beta1'),
    )
    .option('--authentication-token-webhook-cache-ttl <duration>', 'how long webhook answers are cached', duration, parseDuration('2m'))
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
      '--anonymous-auth [bool]',
      'requests without credentials are system:anonymous (authorization decides) instead of 401; off until RBAC serves the public-info role',
      goBoolFlag,
      false,
    )
    .option('--request-timeout <duration>', 'longest time a non-long-running request may take before 504 (0: none)', duration, parseDuration('1m'))
    .option('--min-request-timeout <seconds>', 'watches without timeoutSeconds end after a random time between this and twice this', count, 1800)
    .option('--max-requests-inflight <n>', 'read-only requests served at once before 429 (watches and system:masters not counted; 0: no limit)', count, 400)
    .option('--max-mutating-requests-inflight <n>', 'mutating requests served at once before 429 (0: no limit)', count, 200)
    .option('--feature-gates <gates>', 'comma-separated key=value pairs that switch features on or off (e.g. ServerSideApply=false)', featureGates)
    .option('-v, --v <level>', 'log verbosity', (v) => Number(v), 0);
}

interface ParsedFlags {
  dataDir: string;
  securePort: number;
  bindAddress: string;
  certDir?: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  storageBackend: 'sqlite' | 'memory';
  eventTtl: number;
  etcdCompactionInterval: number;
  kubernetesCompat: boolean;
  serviceClusterIpRange: string;
  serviceNodePortRange: string;
  livezGracePeriod: number;
  shutdownDelayDuration: number;
  featureGates?: Record<string, boolean>;
  clientCaFile?: string;
  tokenAuthFile?: string;
  enableBootstrapTokenAuth: boolean;
  authenticationTokenWebhookConfigFile?: string;
  authenticationTokenWebhookVersion: 'v1' | 'v1beta1';
  authenticationTokenWebhookCacheTtl: number;
  requestheaderClientCaFile?: string;
  requestheaderAllowedNames: string[];
  requestheaderUsernameHeaders: string[];
  requestheaderGroupHeaders: string[];
  requestheaderExtraHeadersPrefix: string[];
  anonymousAuth: boolean;
  requestTimeout: number;
  minRequestTimeout: number;
  maxRequestsInflight: number;
  maxMutatingRequestsInflight: number;
  v: number;
}

/** Control-plane options from parsed flags; reads the TLS files when given. */
export function optionsFromFlags(flags: ParsedFlags): ControlPlaneOptions {
  if ((flags.tlsCertFile === undefined) !== (flags.tlsPrivateKeyFile === undefined)) {
    throw new Error('--tls-cert-file and --tls-private-key-file must be given together');
  }
  return {
    dataDir: flags.dataDir,
    securePort: flags.securePort,
    bindAddress: flags.bindAddress,
    certDir: flags.certDir,
    tlsCertPem: flags.tlsCertFile ? readFileSync(flags.tlsCertFile, 'utf8') : undefined,
    tlsKeyPem: flags.tlsPrivateKeyFile ? readFileSync(flags.tlsPrivateKeyFile, 'utf8') : undefined,
    storageBackend: flags.storageBackend,
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
    enableBootstrapTokenAuth: flags.enableBootstrapTokenAuth,
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
    requestTimeoutMs: flags.requestTimeout,
    minRequestTimeoutSeconds: flags.minRequestTimeout,
    inFlight: { maxRequestsInflight: flags.maxRequestsInflight, maxMutatingRequestsInflight: flags.maxMutatingRequestsInflight },
    ...(flags.featureGates ? { featureGates: flags.featureGates } : {}),
  };
}
