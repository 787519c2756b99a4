/**
 * The flags every component (orch-scheduler, orch-controller-manager) shares, as upstream's
 * component-base and apiserver options: secure serving, delegated authentication and
 * authorization, leader election, metrics and klog logging; pflag's syntax (`--log_dir`,
 * `-v=2`, string slices) and how --help prints defaults. Each add* function adds one group.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { parseDuration } from '../machinery/duration.js';
import { CIPHER_SUITE_NAMES } from '../serving/tls-options.js';
import { collect, duration, flagValue, goBoolFlag, integer } from './flag-values.js';

const d = (ms: string) => parseDuration(ms);
const int = integer(-(2 ** 31), 2 ** 31 - 1, 'an integer');

/** A pflag string slice: comma-separated and repeatable; the first use replaces the default. */
export function slice(defaults: readonly string[]): (value: string, previous: string[]) => string[] {
  return (value, previous) => [...(previous === defaults ? [] : previous), ...value.split(',').filter((v) => v !== '')];
}

const uint = integer(0, Number.MAX_SAFE_INTEGER, 'a whole number, 0 or more');

/** klog's severity flag: a number or a severity name. */
const severity = flagValue((v: string): number => {
  const names = ['INFO', 'WARNING', 'ERROR', 'FATAL'];
  const i = names.indexOf(v.toUpperCase());
  if (i >= 0) return i;
  if (/^\d+$/.test(v)) return Number(v);
  throw new Error('want a severity: INFO, WARNING, ERROR, FATAL or 0-3');
});

const vmodule = flagValue((v: string): string[] => {
  const pairs = v.split(',').filter((p) => p !== '');
  for (const p of pairs) if (!/^[^=]+=\d+$/.test(p)) throw new Error('syntax error: expect comma-separated list of filename=N');
  return pairs;
});

const backtraceAt = flagValue((v: string): string => {
  if (v === '' || v === ':0') return '';
  if (!/^[^:]+:\d+$/.test(v)) throw new Error('syntax error: expect file.go:234');
  return v;
});

/** `--allow-metric-labels metric,label='v1,v2',metric,label2=v3` → `metric,label` → values. */
function metricLabels(value: string, previous: Map<string, string[]>): Map<string, string[]> {
  const out = new Map(previous);
  const re = /\s*([^,=\s]+,[^,=\s]+)=('([^']*)'|([^,]*))/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  for (;;) {
    m = re.exec(value);
    if (!m) break;
    out.set(
      m[1],
      (m[3] ?? m[4] ?? '').split(',').map((s) => s.trim()),
    );
    end = re.lastIndex;
    if (value[end] === ',') re.lastIndex = ++end;
  }
  if (end !== value.length) throw new InvalidArgumentError(`${value} must be formatted as <MetricName>,<LabelName>=<allowed_value>,<allowed_value>...`);
  return out;
}

export const boolOpt = (flags: string, help: string, def: boolean) => new Option(flags, help).argParser(goBoolFlag).default(def);

const ALWAYS_ALLOW = ['/healthz', '/readyz', '/livez'];
const RH_USER = ['x-remote-user'];
const RH_GROUP = ['x-remote-group'];
const RH_EXTRA = ['x-remote-extra-'];

const SHOWN_DEFAULTS = new Map<string, string>([
  ['--authentication-token-webhook-cache-ttl', '10s'],
  ['--authorization-webhook-cache-authorized-ttl', '10s'],
  ['--authorization-webhook-cache-unauthorized-ttl', '10s'],
  ['--leader-elect-lease-duration', '15s'],
  ['--leader-elect-renew-deadline', '10s'],
  ['--leader-elect-retry-period', '2s'],
  ['--log-flush-frequency', '5s'],
  ['--authorization-always-allow-paths', '[/healthz,/readyz,/livez]'],
  ['--requestheader-username-headers', '[x-remote-user]'],
  ['--requestheader-group-headers', '[x-remote-group]'],
  ['--requestheader-extra-headers-prefix', '[x-remote-extra-]'],
  ['--requestheader-allowed-names', '[]'],
  ['--tls-cipher-suites', '[]'],
  ['--tls-sni-cert-key', '[]'],
  ['--disabled-metrics', '[]'],
  ['--allow-metric-labels', '[]'],
  ['--vmodule', '[]'],
  ['--log-backtrace-at', ':0'],
]);

/** pflag spells `--log_dir` and `-v=2`; commander wants `--log-dir` and `--v=2`. */
export function normalizeArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of argv) {
    if (a === '--') {
      out.push(...argv.slice(argv.indexOf(a)));
      break;
    }
    if (/^-v=/.test(a)) out.push(`--v=${a.slice(3)}`);
    else if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      out.push(name.replace(/_/g, '-') + (eq < 0 ? '' : a.slice(eq)));
    } else out.push(a);
  }
  return out;
}

/** --help shows defaults as pflag prints them (durations and lists in their flag syntax); `only`: just these flags. */
export function showPflagDefaults(cmd: Command, only?: readonly string[]): void {
  for (const opt of cmd.options) {
    if (only !== undefined && !only.includes(opt.long ?? '')) continue;
    const shown = SHOWN_DEFAULTS.get(opt.long ?? '');
    if (shown !== undefined) opt.defaultValueDescription = shown;
  }
}

/** Secure serving (upstream's SecureServingOptions) on `port`. */
export function addSecureServingFlags(cmd: Command, port: number): void {
  cmd
    .option(
      '--bind-address <ip>',
      'The IP address on which to listen for the --secure-port port. If blank or an unspecified address (0.0.0.0 or ::), all interfaces will be used.',
      '0.0.0.0',
    )
    .option('--secure-port <int>', "The port on which to serve HTTPS with authentication and authorization. If 0, don't serve HTTPS at all.", int, port)
    .option(
      '--cert-dir <dir>',
      'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored.',
    )
    .option(
      '--tls-cert-file <file>',
      'File containing the default x509 Certificate for HTTPS. (CA cert, if any, concatenated after server cert). If HTTPS serving is enabled, and --tls-cert-file and --tls-private-key-file are not provided, a self-signed certificate and key are generated for the public address and saved to the directory specified by --cert-dir.',
    )
    .option('--tls-private-key-file <file>', 'File containing the default x509 private key matching --tls-cert-file.')
    .option(
      '--tls-cipher-suites <suites>',
      `Comma-separated list of cipher suites for the server. If omitted, the default cipher suites will be used. Possible values: ${CIPHER_SUITE_NAMES.join(',')}`,
      slice([]),
      [],
    )
    .addOption(
      new Option('--tls-min-version <version>', 'Minimum TLS version supported.').choices(['VersionTLS10', 'VersionTLS11', 'VersionTLS12', 'VersionTLS13']),
    )
    .option(
      '--tls-sni-cert-key <cert,key[:patterns]>',
      'A pair of x509 certificate and private key file paths, optionally suffixed with a list of domain patterns which are fully qualified domain names, possibly with prefixed wildcard segments. If no domain patterns are provided, the names of the certificate are extracted. The domain patterns also allow IP addresses, but IPs should only be used if the apiserver has visibility to the IP address requested by a client. If multiple key/certificate pairs are provided, the one with the longest matching pattern wins. Examples: "example.crt,example.key" or "foo.crt,foo.key:*.foo.com,foo.com". Repeatable.',
      collect,
      [],
    )
    .option(
      '--http2-max-streams-per-connection <int>',
      "The limit that the server gives to clients for the maximum number of streams in an HTTP/2 connection. Zero means to use the runtime's default.",
      int,
      0,
    )
    .addOption(boolOpt('--permit-address-sharing [bool]', 'If true, SO_REUSEADDR will be used when binding the port.', false))
    .addOption(
      boolOpt(
        '--permit-port-sharing [bool]',
        'If true, SO_REUSEPORT will be used when binding the port (not available on this Node.js runtime: refused).',
        false,
      ),
    );
}

/** Delegated authentication and authorization (upstream's Delegating*Options). */
export function addDelegationFlags(cmd: Command): void {
  cmd
    // authentication
    .option(
      '--authentication-kubeconfig <file>',
      'kubeconfig file pointing at the core API server with enough rights to create tokenreviews. This is optional. If empty, all token requests are considered to be anonymous and no client CA is looked up in the cluster.',
    )
    .addOption(
      boolOpt(
        '--authentication-skip-lookup [bool]',
        'If false, the authentication-kubeconfig will be used to lookup missing authentication configuration from the cluster.',
        false,
      ),
    )
    .option('--authentication-token-webhook-cache-ttl <duration>', 'The duration to cache responses from the webhook token authenticator.', duration, d('10s'))
    .addOption(
      boolOpt(
        '--authentication-tolerate-lookup-failure [bool]',
        'If true, failures to look up missing authentication configuration from the cluster are not considered fatal. Note that this can result in authentication that treats all requests as anonymous.',
        true,
      ),
    )
    .option(
      '--client-ca-file <file>',
      'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
    )
    .option(
      '--requestheader-client-ca-file <file>',
      'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers. WARNING: generally do not depend on authorization being already done for incoming requests.',
    )
    .option(
      '--requestheader-allowed-names <names>',
      'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
      slice([]),
      [],
    )
    .option('--requestheader-username-headers <headers>', 'List of request headers to inspect for usernames. X-Remote-User is common.', slice(RH_USER), RH_USER)
    .option('--requestheader-group-headers <headers>', 'List of request headers to inspect for groups. X-Remote-Group is suggested.', slice(RH_GROUP), RH_GROUP)
    .option(
      '--requestheader-extra-headers-prefix <prefixes>',
      'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
      slice(RH_EXTRA),
      RH_EXTRA,
    )
    // authorization
    .option(
      '--authorization-kubeconfig <file>',
      'kubeconfig file pointing at the core API server with enough rights to create subjectaccessreviews. This is optional. If empty, all requests not skipped by authorization are forbidden.',
    )
    .option(
      '--authorization-always-allow-paths <paths>',
      'A list of HTTP paths to skip during authorization, i.e. these are authorized without contacting the core API server.',
      slice(ALWAYS_ALLOW),
      ALWAYS_ALLOW,
    )
    .option(
      '--authorization-webhook-cache-authorized-ttl <duration>',
      "The duration to cache 'authorized' responses from the webhook authorizer.",
      duration,
      d('10s'),
    )
    .option(
      '--authorization-webhook-cache-unauthorized-ttl <duration>',
      "The duration to cache 'unauthorized' responses from the webhook authorizer.",
      duration,
      d('10s'),
    );
}

/** Leader election (component-base's LeaderElectionConfiguration flags) with its default lock name. */
export function addLeaderElectionFlags(cmd: Command, resourceName: string): void {
  cmd
    // leader election
    .addOption(
      boolOpt(
        '--leader-elect [bool]',
        'Start a leader election client and gain leadership before executing the main loop. Enable this when running replicated components for high availability.',
        true,
      ),
    )
    .option(
      '--leader-elect-lease-duration <duration>',
      'The duration that non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot. This is effectively the maximum duration that a leader can be stopped before it is replaced by another candidate. This is only applicable if leader election is enabled.',
      duration,
      d('15s'),
    )
    .option(
      '--leader-elect-renew-deadline <duration>',
      'The interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than or equal to the lease duration. This is only applicable if leader election is enabled.',
      duration,
      d('10s'),
    )
    .addOption(
      new Option(
        '--leader-elect-resource-lock <lock>',
        "The type of resource object that is used for locking during leader election. Supported options are 'endpoints', 'configmaps', 'leases', 'endpointsleases' and 'configmapsleases'.",
      )
        .choices(['endpoints', 'configmaps', 'leases', 'endpointsleases', 'configmapsleases'])
        .default('leases'),
    )
    .option('--leader-elect-resource-name <name>', 'The name of resource object that is used for locking during leader election.', resourceName)
    .option('--leader-elect-resource-namespace <namespace>', 'The namespace of resource object that is used for locking during leader election.', 'orch-system')
    .option(
      '--leader-elect-retry-period <duration>',
      'The duration the clients should wait between attempting acquisition and renewal of a leadership. This is only applicable if leader election is enabled.',
      duration,
      d('2s'),
    );
}

/** Metrics (component-base's metrics options). */
export function addMetricsFlags(cmd: Command): void {
  cmd
    .option(
      '--allow-metric-labels <map>',
      "The map from metric-label to value allow-list of this label. The key's format is <MetricName>,<LabelName>. The value's format is <allowed_value>,<allowed_value>...e.g. metric1,label1='v1,v2,v3', metric1,label2='v1,v2,v3' metric2,label1='v1,v2,v3'.",
      metricLabels,
      new Map<string, string[]>(),
    )
    .option(
      '--disabled-metrics <names>',
      'This flag provides an escape hatch for misbehaving metrics. You must provide the fully qualified metric name in order to disable it. Disclaimer: disabling metrics is higher in precedence than showing hidden metrics.',
      slice([]),
      [],
    )
    .option(
      '--show-hidden-metrics-for-version <version>',
      "The previous version for which you want to show hidden metrics. Only the previous minor version is meaningful, other values will not be allowed. The format is <major>.<minor>, e.g.: '1.16'. The purpose of this format is make sure you have the opportunity to notice if the next release hides additional metrics, rather than being surprised when they are permanently removed in the release after that.",
    );
}

/** klog's flags. */
export function addLoggingFlags(cmd: Command): void {
  cmd
    // logging
    .option('-v, --v <int>', 'number for the log level verbosity', integer(0, 2 ** 31 - 1, 'a log level: a whole number, 0 or more'), 0)
    .option('--vmodule <pattern=N,...>', 'comma-separated list of pattern=N settings for file-filtered logging', vmodule, [])
    .option('--log-backtrace-at <file:N>', 'when logging hits line file:N, emit a stack trace', backtraceAt, '')
    .option('--log-dir <dir>', 'If non-empty, write log files in this directory')
    .option('--log-file <file>', 'If non-empty, use this log file')
    .option(
      '--log-file-max-size <uint>',
      'Defines the maximum size a log file can grow to. Unit is megabytes. If the value is 0, the maximum file size is unlimited.',
      uint,
      1800,
    )
    .option('--log-flush-frequency <duration>', 'Maximum number of seconds between log flushes (lines are written as they are logged)', duration, d('5s'))
    .addOption(
      new Option(
        '--logging-format <format>',
        'Sets the log format. Permitted formats: "json", "text". Non-default formats don\'t honor these flags: --add-dir-header, --alsologtostderr, --log-backtrace-at, --log-dir, --log-file, --log-file-max-size, --logtostderr, --one-output, --skip-headers, --skip-log-headers, --stderrthreshold, --vmodule, --log-flush-frequency. Non-default choices are currently alpha and subject to change without warning.',
      ).default('text'),
    )
    .addOption(boolOpt('--logtostderr [bool]', 'log to standard error instead of files', true))
    .addOption(boolOpt('--alsologtostderr [bool]', 'log to standard error as well as files', false))
    .option('--stderrthreshold <int>', 'logs at or above this threshold go to stderr', severity, 2)
    .addOption(boolOpt('--add-dir-header [bool]', 'If true, adds the file directory to the header of the log messages', false))
    .addOption(boolOpt('--one-output [bool]', 'If true, only write logs to their native severity level (vs also writing to each lower severity level)', false))
    .addOption(boolOpt('--skip-headers [bool]', 'If true, avoid header prefixes in the log messages', false))
    .addOption(boolOpt('--skip-log-headers [bool]', 'If true, avoid headers when opening log files', false))
    .addOption(
      boolOpt(
        '--experimental-logging-sanitization [bool]',
        '[Experimental] When enabled prevents logging of fields tagged as sensitive (passwords, keys, tokens). Runtime log sanitization may introduce significant computation overhead and therefore should not be enabled in production.',
        false,
      ),
    );
}
