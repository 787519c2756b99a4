/**
 * `orch-scheduler`'s flags: every option of the spec's table with its type and default, the
 * request-header flags of delegated authentication, and `--kubernetes-compat`. Names, defaults
 * and deprecations follow kube-scheduler 1.21 (`--kube-api-*` become `--orch-api-*`; the old
 * spellings are accepted, hidden). Values are parsed as pflag does; cross-flag checks are in
 * scheduler-options.ts.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { LOGGING_FORMATS } from '../machinery/klog.js';
import { versionInfo } from '../server/version.js';
import { ALGORITHM_PROVIDERS } from '../scheduler/config/legacy-policy.js';
import { flagValue, integer } from './flag-values.js';
import {
  addDelegationFlags,
  addLeaderElectionFlags,
  addLoggingFlags,
  addMetricsFlags,
  addSecureServingFlags,
  boolOpt,
  showPflagDefaults,
} from './component-flags.js';

export { normalizeArgs } from './component-flags.js';
import { parseFeatureGates } from './feature-gates.js';

/** kube-scheduler 1.21's feature gates that bear on scheduling, with their defaults. */
export const SCHEDULER_FEATURE_GATES: Readonly<Record<string, boolean>> = {
  CSIStorageCapacity: true,
  DefaultPodTopologySpread: true,
  GenericEphemeralVolume: true,
  LocalStorageCapacityIsolation: true,
  NonPreemptingPriority: true,
  PodAffinityNamespaceSelector: false,
  PodOverhead: true,
  PreferNominatedNode: false,
  VolumeCapacityPriority: false,
};

/** Deprecated flags: the message pflag prints when one is used (`Flag --x has been deprecated, <msg>`). */
export const DEPRECATED_FLAGS = new Map<string, string>([
  ['address', 'the insecure port is deprecated: use --bind-address (with --secure-port) instead.'],
  ['port', 'the insecure port is deprecated: use --secure-port instead.'],
  ['algorithm-provider', 'the scheduling algorithm providers are deprecated: use a configuration file (--config) with profiles instead.'],
  ['policy-config-file', 'the scheduler Policy API is deprecated: use a configuration file (--config) with profiles instead.'],
  ['policy-configmap', 'the scheduler Policy API is deprecated: use a configuration file (--config) with profiles instead.'],
  ['policy-configmap-namespace', 'the scheduler Policy API is deprecated: use a configuration file (--config) with profiles instead.'],
  ['use-legacy-policy-config', 'the scheduler Policy API is deprecated: use a configuration file (--config) with profiles instead.'],
  ['contention-profiling', 'This parameter is ignored if a config file is specified in --config.'],
  ['profiling', 'This parameter is ignored if a config file is specified in --config.'],
  ['kubeconfig', 'This parameter is ignored if a config file is specified in --config.'],
  ['orch-api-content-type', 'This parameter is ignored if a config file is specified in --config.'],
  ['orch-api-qps', 'This parameter is ignored if a config file is specified in --config.'],
  ['orch-api-burst', 'This parameter is ignored if a config file is specified in --config.'],
  [
    'lock-object-namespace',
    'Will be removed in favor of leader-elect-resource-namespace. This parameter is ignored if a config file is specified in --config.',
  ],
  ['lock-object-name', 'Will be removed in favor of leader-elect-resource-name. This parameter is ignored if a config file is specified in --config.'],
  [
    'hard-pod-affinity-symmetric-weight',
    'This option was moved to the policy configuration file. This parameter is ignored if a config file is specified in --config.',
  ],
  ['scheduler-name', 'This parameter is ignored if a config file is specified in --config.'],
]);

/**
 * Deprecated flags that still apply when --config is given: the spec's list (the policy source
 * flags), with --use-legacy-policy-config that picks among them. 1.21's code also let
 * --address/--port override the file; the spec says they are ignored, and so they are.
 */
export const APPLIED_WITH_CONFIG = new Set([
  'algorithm-provider',
  'policy-config-file',
  'policy-configmap',
  'policy-configmap-namespace',
  'use-legacy-policy-config',
]);

const int = integer(-(2 ** 31), 2 ** 31 - 1, 'an integer');
const int32 = int;
const float = flagValue((v: string): number => {
  const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(v)}: invalid syntax`);
  return n;
});

function gates(value: string, previous: Record<string, boolean> | undefined): Record<string, boolean> {
  try {
    return parseFeatureGates(value, previous, SCHEDULER_FEATURE_GATES);
  } catch (e) {
    throw new InvalidArgumentError(e instanceof Error ? e.message : String(e));
  }
}

export function schedulerCommand(): Command {
  const cmd = new Command('orch-scheduler')
    .description(
      'orch scheduler: watches for pods without a node and binds each to a node that fits it, per the profile its spec.schedulerName names. Talks to the API server only through its client.',
    )
    .version(`orch ${versionInfo().gitVersion}`, '--version', 'print version information and quit')
    .helpOption('-h, --help', 'help for orch-scheduler')
    .allowExcessArguments(false)
    // misc
    .option(
      '--config <file>',
      'The path to the configuration file (kubescheduler.config.orch.io/v1beta1, or kubescheduler.config.k8s.io/v1beta1 with --kubernetes-compat). The following flags can overwrite fields in this file: --use-legacy-policy-config, --policy-configmap, --policy-configmap-namespace, --policy-config-file, --algorithm-provider',
    )
    .option('--write-config-to <file>', 'If set, write the configuration values to this file and exit.')
    .option('--master <url>', 'The address of the API server (overrides any value in kubeconfig)')
    .addOption(
      boolOpt('--kubernetes-compat [bool]', "use Kubernetes' own names: kubescheduler.config.k8s.io, kube-system, kube-scheduler, *.k8s.io review APIs", false),
    );
  // secure serving
  addSecureServingFlags(cmd, 10259);
  cmd
    // insecure serving (deprecated)
    .option(
      '--address <ip>',
      'DEPRECATED: the IP address on which to listen for the --port port (set to 0.0.0.0 or :: for listening in all interfaces and IP families). See --bind-address instead. This parameter is ignored if a config file is specified in --config.',
      '0.0.0.0',
    )
    .option(
      '--port <int>',
      "DEPRECATED: the port on which to serve HTTP insecurely without authentication and authorization. If 0, don't serve plain HTTP at all. See --secure-port instead. This parameter is ignored if a config file is specified in --config.",
      int,
      10251,
    );
  addDelegationFlags(cmd);
  cmd
    // deprecated
    .addOption(
      new Option('--algorithm-provider <provider>', `DEPRECATED: the scheduling algorithm provider to use, one of: ${ALGORITHM_PROVIDERS.join(' | ')}`),
    )
    .option(
      '--policy-config-file <file>',
      'DEPRECATED: file with scheduler policy configuration. This file is used if policy ConfigMap is not provided or --use-legacy-policy-config=true. Note: The scheduler will fail if this is combined with Plugin configs',
    )
    .option(
      '--policy-configmap <name>',
      "DEPRECATED: name of the ConfigMap object that contains scheduler's policy configuration. It must exist in the system namespace before scheduler initialization if --use-legacy-policy-config=false. The config must be provided as the value of an element in 'Data' map with the key='policy.cfg'. Note: The scheduler will fail if this is combined with Plugin configs",
    )
    .option(
      '--policy-configmap-namespace <namespace>',
      'DEPRECATED: the namespace where policy ConfigMap is located. The orch-system namespace (kube-system with --kubernetes-compat) will be used if this is not provided or is empty. Note: The scheduler will fail if this is combined with Plugin configs',
      'orch-system',
    )
    .addOption(
      boolOpt(
        '--use-legacy-policy-config [bool]',
        'DEPRECATED: when set to true, scheduler will ignore policy ConfigMap and uses policy config file. Note: The scheduler will fail if this is combined with Plugin configs',
        false,
      ),
    )
    .addOption(
      boolOpt(
        '--profiling [bool]',
        "DEPRECATED: enable profiling via web interface host:port/debug/pprof/ (a V8 CPU profile in Node's .cpuprofile format, not Go pprof). This parameter is ignored if a config file is specified in --config.",
        true,
      ),
    )
    .addOption(
      boolOpt(
        '--contention-profiling [bool]',
        'DEPRECATED: enable lock contention profiling, if profiling is enabled (nothing to record in a Node process). This parameter is ignored if a config file is specified in --config.',
        true,
      ),
    )
    .option(
      '--kubeconfig <file>',
      'DEPRECATED: path to kubeconfig file with authorization and master location information. This parameter is ignored if a config file is specified in --config.',
    )
    .option(
      '--orch-api-content-type <type>',
      'DEPRECATED: content type of requests sent to apiserver. This parameter is ignored if a config file is specified in --config.',
      'application/vnd.orch.protobuf',
    )
    .option(
      '--orch-api-qps <float>',
      'DEPRECATED: QPS to use while talking with the API server. This parameter is ignored if a config file is specified in --config.',
      float,
      50,
    )
    .option(
      '--orch-api-burst <int32>',
      'DEPRECATED: burst to use while talking with the API server. This parameter is ignored if a config file is specified in --config.',
      int32,
      100,
    )
    .addOption(new Option('--kube-api-content-type <type>').hideHelp())
    .addOption(new Option('--kube-api-qps <float>').argParser(float).hideHelp())
    .addOption(new Option('--kube-api-burst <int32>').argParser(int32).hideHelp())
    .option(
      '--lock-object-namespace <namespace>',
      'DEPRECATED: define the namespace of the lock object. Will be removed in favor of leader-elect-resource-namespace. This parameter is ignored if a config file is specified in --config.',
      'orch-system',
    )
    .option(
      '--lock-object-name <name>',
      'DEPRECATED: define the name of the lock object. Will be removed in favor of leader-elect-resource-name. This parameter is ignored if a config file is specified in --config.',
      'orch-scheduler',
    )
    .option(
      '--hard-pod-affinity-symmetric-weight <int32>',
      'DEPRECATED: RequiredDuringScheduling affinity is not symmetric, but there is an implicit PreferredDuringScheduling affinity rule corresponding to every RequiredDuringScheduling affinity rule. --hard-pod-affinity-symmetric-weight represents the weight of implicit PreferredDuringScheduling affinity rule. Must be in the range 0-100.This parameter is ignored if a config file is specified in --config.',
      int32,
      1,
    )
    .option(
      '--scheduler-name <name>',
      'DEPRECATED: name of the scheduler, used to select which pods will be processed by this scheduler, based on pod\'s "spec.schedulerName". This parameter is ignored if a config file is specified in --config.',
      'default-scheduler',
    );
  addLeaderElectionFlags(cmd, 'orch-scheduler');
  cmd
    // feature gates, metrics
    .option(
      '--feature-gates <gates>',
      `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are: ${Object.keys(SCHEDULER_FEATURE_GATES)
        .map((g) => `${g}=true|false`)
        .join(', ')}`,
      gates,
    );
  addMetricsFlags(cmd);
  addLoggingFlags(cmd);
  showPflagDefaults(cmd);
  return cmd;
}

/** Accepted logging formats (checked in options so the error is upstream's). */
export { LOGGING_FORMATS };
