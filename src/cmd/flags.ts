/** The API server's command-line flags (upstream names and defaults), shared by both binaries. */
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, DEFAULT_SERVICE_NODE_PORT_RANGE } from '../registry/service/ranges.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { parseDuration } from '../machinery/duration.js';
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
    ...(flags.featureGates ? { featureGates: flags.featureGates } : {}),
  };
}
