/** The API server's command-line flags (upstream names and defaults), shared by both binaries. */
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, DEFAULT_SERVICE_NODE_PORT_RANGE, parseClusterIPRange, parseNodePortRange } from '../admission/service-allocation.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { checkPair } from '../pki/check.js';
import { DEFAULT_QUOTA_BACKEND_BYTES } from '../storage/limits.js';
import { parseDuration } from '../machinery/duration.js';
import type { ControlPlaneOptions } from './control-plane-types.js';
import { parseFeatureGates } from './feature-gates.js';

/**
 * A flag parser whose every failure is commander's InvalidArgumentError, so a bad value is
 * reported as one line (`error: option '--x <v>' argument 'y' is invalid. <why>`), exit 1.
 */
function flagValue<T>(parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (e) {
      throw new InvalidArgumentError(e instanceof Error ? e.message : String(e));
    }
  };
}

const duration = flagValue((value: string): number => {
  const ms = parseDuration(value);
  if (ms < 0) throw new Error(`a duration must not be negative, got ${value}`);
  return ms;
});

function featureGates(value: string, previous: Record<string, boolean> | undefined): Record<string, boolean> {
  try {
    return parseFeatureGates(value, previous);
  } catch (e) {
    throw new InvalidArgumentError(e instanceof Error ? e.message : String(e));
  }
}

/** A decimal integer in [min, max]; Number() alone would take '', ' 1', '0x10' and '1e3'. */
function integer(min: number, max: number, what: string): (value: string) => number {
  return flagValue((value) => {
    const n = /^[+-]?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new Error(`want ${what}`);
    return n;
  });
}

const port = integer(0, 65535, 'a port number from 0 to 65535 (0 picks a free port)');
const verbosity = integer(0, 2 ** 31 - 1, 'a log level: a whole number, 0 or more');
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

/** A command with every API server flag, each with its default in --help. */
export function apiServerCommand(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .option('--data-dir <dir>', 'directory of the embedded store, certificates and admin.kubeconfig', './.orch')
    .option('--secure-port <port>', 'HTTPS port (0 picks a free port)', port, 6443)
    .option('--bind-address <ip>', 'address to listen on', ipAddress, '127.0.0.1')
    .option('--cert-dir <dir>', 'directory of the generated certificates (default <data-dir>/pki)')
    .option('--tls-cert-file <file>', 'serving certificate (PEM) instead of the generated one')
    .option('--tls-private-key-file <file>', 'key of --tls-cert-file (PEM)')
    .addOption(new Option('--storage-backend <backend>', 'storage backend').choices(['sqlite', 'memory']).default('sqlite'))
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
    .option('--feature-gates <gates>', 'comma-separated key=value pairs that switch features on or off (e.g. ServerSideApply=false)', featureGates)
    .option('-v, --v <level>', 'log verbosity', verbosity, 0);
}

interface ParsedFlags {
  dataDir: string;
  securePort: number;
  bindAddress: string;
  certDir?: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  storageBackend: 'sqlite' | 'memory';
  quotaBackendBytes: number;
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
  const tls = flags.tlsCertFile && flags.tlsPrivateKeyFile ? readServingPair(flags.tlsCertFile, flags.tlsPrivateKeyFile) : undefined;
  return {
    dataDir: flags.dataDir,
    securePort: flags.securePort,
    bindAddress: flags.bindAddress,
    certDir: flags.certDir,
    tlsCertPem: tls?.certPem,
    tlsKeyPem: tls?.keyPem,
    storageBackend: flags.storageBackend,
    quotaBackendBytes: flags.quotaBackendBytes,
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
