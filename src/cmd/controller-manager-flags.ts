/**
 * `orch-controller-manager`'s flags: kube-controller-manager 1.25's generic ones (--controllers,
 * --kubeconfig, --master, --use-service-account-credentials, the API client's qps/burst), the
 * controllers' own (--concurrent-*-syncs, --root-ca-file, --service-account-private-key-file,
 * --cluster-signing-*), and the shared serving, delegation, leader-election, metrics and
 * logging groups of component-flags.ts. `--kube-api-*` become `--orch-api-*` as for the
 * scheduler (the old spellings are accepted, hidden).
 */
import { Command, Option } from 'commander';
import { DISABLED_BY_DEFAULT } from '../controllers/controller-table.js';
import { controllerTableWithCertificates } from './certificate-controllers.js';
import { versionInfo } from '../server/version.js';
import {
  addDelegationFlags,
  addLeaderElectionFlags,
  addLoggingFlags,
  addMetricsFlags,
  addSecureServingFlags,
  boolOpt,
  showPflagDefaults,
  slice,
} from './component-flags.js';
import { flagValue, integer } from './flag-values.js';
import type { ServingFlags } from './component-serving.js';
import type { LoggingFlags } from './scheduler-options.js';

/** kube-controller-manager's default secure port. */
export const CONTROLLER_MANAGER_PORT = 10257;

/** --controllers' default; the same array, so that the first --controllers replaces it (slice). */
const ALL_CONTROLLERS = ['*'];

const int32 = integer(-(2 ** 31), 2 ** 31 - 1, 'an integer');
const float32 = flagValue((v: string): number => {
  const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax`);
  return n;
});

/** The --concurrent-<stem>-syncs flags with upstream's defaults, by stem. */
export const CONCURRENCY_FLAGS: readonly [stem: string, defaultValue: number, help: string][] = [
  ['gc', 20, 'The number of garbage collector workers that are allowed to sync concurrently.'],
  [
    'namespace',
    10,
    'The number of namespace objects that are allowed to sync concurrently. Larger number = more responsive namespace termination, but more CPU (and network) load',
  ],
  [
    'serviceaccount-token',
    5,
    'The number of service account token objects that are allowed to sync concurrently. Larger number = more responsive token generation, but more CPU (and network) load',
  ],
];

/** The parsed flags (commander's camel-cased names). */
export interface ControllerManagerFlags extends ServingFlags, LoggingFlags {
  kubeconfig?: string;
  master?: string;
  kubernetesCompat: boolean;
  controllers: string[];
  useServiceAccountCredentials: boolean;
  orchApiQps: number;
  orchApiBurst: number;
  orchApiContentType: string;
  kubeApiQps?: number;
  kubeApiBurst?: number;
  kubeApiContentType?: string;
  rootCaFile?: string;
  serviceAccountPrivateKeyFile?: string;
  clusterSigningCertFile?: string;
  clusterSigningKeyFile?: string;
  leaderElect: boolean;
  leaderElectLeaseDuration: number;
  leaderElectRenewDeadline: number;
  leaderElectResourceLock: string;
  leaderElectResourceName: string;
  leaderElectResourceNamespace: string;
  leaderElectRetryPeriod: number;
  profiling: boolean;
  allowMetricLabels: Map<string, string[]>;
  disabledMetrics: string[];
  showHiddenMetricsForVersion?: string;
  [concurrency: `concurrent${string}Syncs`]: number;
}

function controllersHelp(): string {
  const table = controllerTableWithCertificates();
  const all = [...table.keys()].sort();
  const off = [...DISABLED_BY_DEFAULT].filter((n) => table.has(n));
  return `A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'.
All controllers: ${all.join(', ')}
Disabled-by-default controllers: ${off.sort().join(', ')}`;
}

export function controllerManagerCommand(): Command {
  const cmd = new Command('orch-controller-manager')
    .description(
      'The orch controller manager runs the controllers the API needs (namespace deletion, service accounts, the root CA in every namespace, ClusterRole aggregation, ...), each talking to the API server only through its client, as kube-controller-manager.',
    )
    .version(`orch ${versionInfo().gitVersion}`, '--version', 'print version information and quit')
    .helpOption('-h, --help', 'help for orch-controller-manager')
    .allowExcessArguments(false)
    .option('--master <url>', 'The address of the API server (overrides any value in kubeconfig).')
    .option('--kubeconfig <file>', 'Path to kubeconfig file with authorization and master location information.')
    .addOption(boolOpt('--kubernetes-compat [bool]', "use Kubernetes' own names: kube-system, kube-controller-manager, *.k8s.io groups", false))
    .option('--controllers <names>', controllersHelp(), slice(ALL_CONTROLLERS), ALL_CONTROLLERS)
    .addOption(boolOpt('--use-service-account-credentials [bool]', 'If true, use individual service account credentials for each controller.', false))
    .option('--orch-api-qps <float>', 'QPS to use while talking with the API server.', float32, 20)
    .option('--orch-api-burst <int32>', 'Burst to use while talking with the API server.', int32, 30)
    .option('--orch-api-content-type <type>', 'Content type of requests sent to apiserver.', 'application/vnd.orch.protobuf')
    .addOption(new Option('--kube-api-qps <float>').argParser(float32).hideHelp())
    .addOption(new Option('--kube-api-burst <int32>').argParser(int32).hideHelp())
    .addOption(new Option('--kube-api-content-type <type>').hideHelp())
    .option(
      '--root-ca-file <file>',
      "If set, this root certificate authority will be included in service account's token secret. This must be a valid PEM-encoded CA bundle.",
    )
    .option('--service-account-private-key-file <file>', 'Filename containing a PEM-encoded private RSA or ECDSA key used to sign service account tokens.')
    .option('--cluster-signing-cert-file <file>', 'Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates.')
    .option('--cluster-signing-key-file <file>', 'Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates.')
    .addOption(boolOpt('--profiling [bool]', 'Enable profiling via web interface host:port/debug/pprof/', true));
  for (const [stem, def, help] of CONCURRENCY_FLAGS) cmd.option(`--concurrent-${stem}-syncs <int32>`, help, int32, def);
  addSecureServingFlags(cmd, CONTROLLER_MANAGER_PORT);
  addDelegationFlags(cmd);
  addLeaderElectionFlags(cmd, 'orch-controller-manager');
  addMetricsFlags(cmd);
  addLoggingFlags(cmd);
  showPflagDefaults(cmd);
  return cmd;
}

/** Commander's camel-cased option name of --concurrent-<stem>-syncs. */
export function concurrencyKey(stem: string): `concurrent${string}Syncs` {
  const camel = stem.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return `concurrent${camel[0]?.toUpperCase()}${camel.slice(1)}Syncs`;
}
