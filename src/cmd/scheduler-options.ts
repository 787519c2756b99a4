/**
 * From `orch-scheduler`'s flags to what runs, as kube-scheduler 1.21's Options.Validate,
 * Options.ApplyTo and Options.Config do: without `--config` the defaulted configuration takes
 * the leader-election flags and the deprecated ones (client connection, lock object, scheduler
 * name, hard pod affinity weight, profiling, the insecure address and port); with `--config`
 * the file replaces it (decoded strictly, validated) and only the policy flags still apply (the
 * spec's list; 1.21's code also applied `--address`/`--port`); a Policy next to profile plugins
 * is refused. Flags outside
 * the configuration (serving, delegated authentication and authorization, logging, metrics,
 * feature gates) always apply. Every error reads as upstream's.
 */
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { Command } from 'commander';
import { getJson } from '../auth/authn/https-json.js';
import { type Brand, brandFor } from '../machinery/brand.js';
import { formatDurationMs } from '../machinery/duration.js';
import type { LoggingOptions } from '../machinery/klog.js';
import { type MetricsSettings, validateShowHiddenMetricsVersion } from '../machinery/metrics.js';
import { type FieldError, invalid, required } from '../machinery/status.js';
import { readKubeconfig } from '../pki/kubeconfig-read.js';
import {
  type CompletedConfiguration,
  completeConfiguration,
  joinHostPort,
  type SchedulerNaming,
  schedulerNaming,
  splitHostPort,
} from '../scheduler/config/complete.js';
import { ConfigDecodeError, decodeConfiguration } from '../scheduler/config/decode.js';
import { type PolicyDocument, policyProfile, withProvider } from '../scheduler/config/legacy-policy.js';
import type { KubeSchedulerConfiguration } from '../scheduler/config/types.js';
import { fieldErrorsText, validateConfiguration } from '../scheduler/config/validation.js';
import { SCHEDULER_RELEASE } from '../scheduler/metrics.js';
import {
  type AuthenticationSetup,
  type AuthorizationSetup,
  authenticationFrom,
  authorizationFrom,
  type SecureServingSetup,
  secureServingFrom,
  validateServingFlags,
} from './component-serving.js';
import { APPLIED_WITH_CONFIG, DEPRECATED_FLAGS, LOGGING_FORMATS } from './scheduler-flags.js';

/** The parsed flags (commander's camel-cased names). */
export interface SchedulerFlags {
  config?: string;
  writeConfigTo?: string;
  master?: string;
  kubernetesCompat: boolean;
  bindAddress: string;
  securePort: number;
  certDir?: string;
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  tlsCipherSuites: string[];
  tlsMinVersion?: string;
  tlsSniCertKey: string[];
  http2MaxStreamsPerConnection: number;
  permitAddressSharing: boolean;
  permitPortSharing: boolean;
  address: string;
  port: number;
  authenticationKubeconfig?: string;
  authenticationSkipLookup: boolean;
  authenticationTokenWebhookCacheTtl: number;
  authenticationTolerateLookupFailure: boolean;
  clientCaFile?: string;
  requestheaderClientCaFile?: string;
  requestheaderAllowedNames: string[];
  requestheaderUsernameHeaders: string[];
  requestheaderGroupHeaders: string[];
  requestheaderExtraHeadersPrefix: string[];
  authorizationKubeconfig?: string;
  authorizationAlwaysAllowPaths: string[];
  authorizationWebhookCacheAuthorizedTtl: number;
  authorizationWebhookCacheUnauthorizedTtl: number;
  algorithmProvider?: string;
  policyConfigFile?: string;
  policyConfigmap?: string;
  policyConfigmapNamespace: string;
  useLegacyPolicyConfig: boolean;
  profiling: boolean;
  contentionProfiling: boolean;
  kubeconfig?: string;
  orchApiContentType: string;
  orchApiQps: number;
  orchApiBurst: number;
  kubeApiContentType?: string;
  kubeApiQps?: number;
  kubeApiBurst?: number;
  lockObjectNamespace: string;
  lockObjectName: string;
  hardPodAffinitySymmetricWeight: number;
  schedulerName: string;
  leaderElect: boolean;
  leaderElectLeaseDuration: number;
  leaderElectRenewDeadline: number;
  leaderElectResourceLock: string;
  leaderElectResourceName: string;
  leaderElectResourceNamespace: string;
  leaderElectRetryPeriod: number;
  featureGates?: Record<string, boolean>;
  allowMetricLabels: Map<string, string[]>;
  disabledMetrics: string[];
  showHiddenMetricsForVersion?: string;
  v: number;
  vmodule: string[];
  logBacktraceAt: string;
  logDir?: string;
  logFile?: string;
  logFileMaxSize: number;
  logFlushFrequency: number;
  loggingFormat: string;
  logtostderr: boolean;
  alsologtostderr: boolean;
  stderrthreshold: number;
  addDirHeader: boolean;
  oneOutput: boolean;
  skipHeaders: boolean;
  skipLogHeaders: boolean;
  experimentalLoggingSanitization: boolean;
}

/** What the command runs with. */
export interface SchedulerSetup {
  brand: Brand;
  naming: SchedulerNaming;
  /** The effective configuration, every default filled (what /configz and --write-config-to show). */
  completed: CompletedConfiguration;
  /** The same as the library's input. */
  configuration: KubeSchedulerConfiguration;
  /** `--master`: overrides the kubeconfig's server. */
  master?: string;
  writeConfigTo?: string;
  featureGates: Record<string, boolean>;
  secure?: SecureServingSetup;
  /** The deprecated insecure ports (healthz, and metrics when on a different address). */
  insecure: { healthz?: { host: string; port: number }; metrics?: { host: string; port: number } };
  authentication: AuthenticationSetup;
  authorization: AuthorizationSetup;
  metrics: MetricsSettings;
}

/** Commander's name of a flag's value. */
function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Whether the user gave the flag on the command line. */
export function given(cmd: Command, flag: string): boolean {
  return cmd.getOptionValueSource(camel(flag)) === 'cli';
}

/** pflag's warning for each deprecated flag used, in the order of the table. */
export function deprecationWarnings(cmd: Command): string[] {
  const out: string[] = [];
  for (const [flag, msg] of DEPRECATED_FLAGS) if (given(cmd, flag)) out.push(`Flag --${flag} has been deprecated, ${msg}`);
  for (const old of ['kube-api-content-type', 'kube-api-qps', 'kube-api-burst']) {
    if (given(cmd, old))
      out.push(
        `Flag --${old} has been deprecated, use --${old.replace('kube-', 'orch-')}; This parameter is ignored if a config file is specified in --config.`,
      );
  }
  return out;
}

/** Deprecated flags given together with --config that do not apply (told to the user, since upstream drops them silently). */
export function ignoredWithConfig(cmd: Command): string[] {
  if (!given(cmd, 'config')) return [];
  return [...DEPRECATED_FLAGS.keys(), 'kube-api-content-type', 'kube-api-qps', 'kube-api-burst'].filter((f) => given(cmd, f) && !APPLIED_WITH_CONFIG.has(f));
}

/** The logging settings of the flags; throws upstream's error for an unknown format. */
export type LoggingFlags = Pick<
  SchedulerFlags,
  | 'v'
  | 'vmodule'
  | 'logtostderr'
  | 'alsologtostderr'
  | 'stderrthreshold'
  | 'logDir'
  | 'logFile'
  | 'logFileMaxSize'
  | 'addDirHeader'
  | 'oneOutput'
  | 'skipHeaders'
  | 'skipLogHeaders'
  | 'logBacktraceAt'
  | 'loggingFormat'
  | 'experimentalLoggingSanitization'
>;

export function loggingFromFlags(f: LoggingFlags, program = 'orch-scheduler'): Partial<LoggingOptions> {
  if (!(LOGGING_FORMATS as readonly string[]).includes(f.loggingFormat)) throw new Error(`unsupported log format: ${f.loggingFormat}`);
  return {
    v: f.v,
    vmodule: f.vmodule,
    logtostderr: f.logtostderr,
    alsologtostderr: f.alsologtostderr,
    stderrthreshold: f.stderrthreshold,
    logDir: f.logDir ?? '',
    logFile: f.logFile ?? '',
    logFileMaxSize: f.logFileMaxSize,
    addDirHeader: f.addDirHeader,
    oneOutput: f.oneOutput,
    skipHeaders: f.skipHeaders,
    skipLogHeaders: f.skipLogHeaders,
    logBacktraceAt: f.logBacktraceAt,
    format: f.loggingFormat as 'text' | 'json',
    sanitization: f.experimentalLoggingSanitization,
    program,
  };
}

type PolicySource = { file: string } | { configMap: { name: string; namespace: string } } | { provider: string } | undefined;

/** DeprecatedOptions.ApplyAlgorithmSourceTo's precedence: legacy file, ConfigMap, provider. */
function algorithmSource(f: SchedulerFlags, brand: Brand): PolicySource {
  if (f.useLegacyPolicyConfig || (f.policyConfigFile && !f.policyConfigmap)) return { file: f.policyConfigFile ?? '' };
  if (f.policyConfigmap) return { configMap: { name: f.policyConfigmap, namespace: f.policyConfigmapNamespace || brand.systemNamespace } };
  if (f.algorithmProvider) return { provider: f.algorithmProvider };
  return undefined;
}

/** Options.Validate's checks of the flags themselves (the configuration's own checks come with it). */
function validateFlags(f: SchedulerFlags): string[] {
  const errs = validateServingFlags(f);
  if (f.port < 0 || f.port > 65535) errs.push(`--port ${f.port} must be between 0 and 65535, inclusive. 0 for turning off insecure (HTTP) port`);
  if (isIP(f.address) === 0) errs.push(`invalid argument ${JSON.stringify(f.address)} for "--address" flag: failed to parse IP: ${JSON.stringify(f.address)}`);
  const fieldErrs: FieldError[] = [];
  if (f.useLegacyPolicyConfig && !f.policyConfigFile) fieldErrs.push(required('policyConfigFile', 'required when --use-legacy-policy-config is true'));
  if (f.hardPodAffinitySymmetricWeight < 0 || f.hardPodAffinitySymmetricWeight > 100)
    fieldErrs.push(invalid('hardPodAffinitySymmetricWeight', f.hardPodAffinitySymmetricWeight, 'not in valid range [0-100]'));
  for (const e of fieldErrs) errs.push(fieldErrorsText([e]));
  const hidden = validateShowHiddenMetricsVersion(SCHEDULER_RELEASE, f.showHiddenMetricsForVersion);
  if (hidden) errs.push(hidden);
  return errs;
}

/** The configuration of a run without --config: defaults, then the flags bound into it. */
function configurationFromFlags(cmd: Command, f: SchedulerFlags, naming: SchedulerNaming): KubeSchedulerConfiguration {
  const pick = <T>(flag: string, value: T, fallback: T): T => (given(cmd, flag) ? value : fallback);
  const cfg: KubeSchedulerConfiguration = {
    leaderElection: {
      leaderElect: f.leaderElect,
      leaseDuration: formatDurationMs(f.leaderElectLeaseDuration),
      renewDeadline: formatDurationMs(f.leaderElectRenewDeadline),
      retryPeriod: formatDurationMs(f.leaderElectRetryPeriod),
      resourceLock: f.leaderElectResourceLock,
      // pflag binds both spellings to one field: the deprecated one wins only when it is given.
      resourceName: given(cmd, 'lock-object-name') ? f.lockObjectName : pick('leader-elect-resource-name', f.leaderElectResourceName, naming.lockName),
      resourceNamespace: given(cmd, 'lock-object-namespace')
        ? f.lockObjectNamespace
        : pick('leader-elect-resource-namespace', f.leaderElectResourceNamespace, naming.lockNamespace),
    },
    clientConnection: {
      kubeconfig: f.kubeconfig ?? '',
      contentType: f.kubeApiContentType ?? pick('orch-api-content-type', f.orchApiContentType, naming.contentType),
      qps: f.kubeApiQps ?? f.orchApiQps,
      burst: f.kubeApiBurst ?? f.orchApiBurst,
    },
    enableProfiling: f.profiling,
    enableContentionProfiling: f.contentionProfiling,
    profiles: [{ schedulerName: f.schedulerName }],
  };
  const profile = cfg.profiles?.[0];
  if (profile && f.hardPodAffinitySymmetricWeight !== 1)
    profile.pluginConfig = [{ name: 'InterPodAffinity', args: { hardPodAffinityWeight: f.hardPodAffinitySymmetricWeight } }];
  const addr = f.port === 0 ? '' : joinHostPort(f.address, String(f.port));
  cfg.healthzBindAddress = addr;
  cfg.metricsBindAddress = addr;
  return cfg;
}

/** emptySchedulerProfileConfig: only the default profile, without plugins or args. */
function emptyProfiles(cfg: KubeSchedulerConfiguration): boolean {
  const p = cfg.profiles ?? [];
  if (p.length === 0) return true;
  return p.length === 1 && (p[0].pluginConfig ?? []).length === 0 && p[0].plugins === undefined;
}

/** Reads the policy of a file or ConfigMap (v1 Policy); throws upstream's errors. */
async function readPolicy(
  source: { file: string } | { configMap: { name: string; namespace: string } },
  kubeconfig: string,
  master: string | undefined,
  brand: Brand,
): Promise<PolicyDocument> {
  let text: string;
  if ('file' in source) {
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (e) {
      throw new Error(`couldn't read policy config: ${(e as Error).message}`);
    }
  } else {
    const { name, namespace } = source.configMap;
    try {
      const conn = readKubeconfig(kubeconfig);
      const server = (master || conn.server).replace(/\/$/, '');
      const agent = new https.Agent({ ca: conn.caPem, cert: conn.certPem, key: conn.keyPem, rejectUnauthorized: !conn.insecureSkipTlsVerify });
      const cm = (await getJson(
        `${server}/api/v1/namespaces/${namespace}/configmaps/${name}`,
        agent,
        10_000,
        conn.token ? { authorization: `Bearer ${conn.token}` } : {},
      )) as {
        data?: Record<string, unknown>;
      };
      agent.destroy();
      const value = cm.data?.['policy.cfg'];
      if (typeof value !== 'string') throw Object.assign(new Error(`missing policy config map value at key "policy.cfg"`), { final: true });
      text = value;
    } catch (e) {
      if ((e as { final?: boolean }).final) throw e;
      throw new Error(`couldn't get policy config map ${namespace}/${name}: ${(e as Error).message}`);
    }
  }
  let policy: unknown;
  try {
    const { parse } = await import('yaml');
    policy = parse(text);
  } catch (e) {
    throw new Error(`invalid policy: ${(e as Error).message}`);
  }
  const p = (policy ?? {}) as PolicyDocument;
  const known = new Set(['v1', `kubescheduler.config.${brand.domain}/v1`]);
  if (p.kind !== 'Policy' || !known.has(p.apiVersion ?? ''))
    throw new Error(`invalid policy: no kind "${p.kind ?? ''}" is registered for version "${p.apiVersion ?? ''}"`);
  return p;
}

/** Builds the run's setup from the parsed command; throws an Error whose message is upstream's. */
export async function schedulerSetup(cmd: Command): Promise<SchedulerSetup> {
  const f = cmd.opts() as SchedulerFlags;
  const brand = brandFor(f.kubernetesCompat);
  const naming = schedulerNaming(brand);
  const errs = validateFlags(f);
  let cfg: KubeSchedulerConfiguration;
  if (!f.config) {
    cfg = configurationFromFlags(cmd, f, naming);
    const fieldErrs = validateConfiguration(cfg);
    for (const e of fieldErrs) errs.push(fieldErrorsText([e]));
    if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  } else {
    if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
    let text: string;
    try {
      text = readFileSync(f.config, 'utf8');
    } catch (e) {
      throw new Error(`open ${f.config}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (e as Error).message}`);
    }
    try {
      cfg = decodeConfiguration(text, naming.apiVersion);
    } catch (e) {
      if (e instanceof ConfigDecodeError) throw new Error(e.message);
      throw e;
    }
    const fieldErrs = validateConfiguration(cfg);
    if (fieldErrs.length > 0) throw new Error(fieldErrorsText(fieldErrs));
  }
  const source = algorithmSource(f, brand);
  if (source && !('provider' in source) && f.config && !emptyProfiles(cfg)) throw new Error('cannot set a Plugin config and Policy config');
  let extenders = cfg.extenders ?? [];
  if (source && 'provider' in source) {
    cfg.profiles = (cfg.profiles && cfg.profiles.length > 0 ? cfg.profiles : [{}]).map((p) => withProvider(p, source.provider));
  } else if (source) {
    const kubeconfig = cfg.clientConnection?.kubeconfig ?? '';
    const policy = await readPolicy(source, kubeconfig, f.master, brand);
    const name = cfg.profiles?.[0]?.schedulerName ?? 'default-scheduler';
    const translated = policyProfile(policy, name);
    cfg.profiles = [translated.profile];
    extenders = translated.extenders;
    if (policy.extenders && policy.extenders.length > 0) cfg.extenders = extenders;
  }
  const completed = completeConfiguration(cfg, naming);
  // An emptied insecure address (`--port=0`) stays disabled rather than defaulted.
  if (cfg.healthzBindAddress === '') completed.healthzBindAddress = '';
  if (cfg.metricsBindAddress === '') completed.metricsBindAddress = '';
  const insecure: SchedulerSetup['insecure'] = {};
  const hp = completed.healthzBindAddress ? splitHostPort(completed.healthzBindAddress) : undefined;
  const mp = completed.metricsBindAddress ? splitHostPort(completed.metricsBindAddress) : undefined;
  if (hp && Number(hp.port) !== 0) insecure.healthz = { host: hp.host, port: Number(hp.port) };
  if (mp && Number(mp.port) !== 0 && completed.metricsBindAddress !== completed.healthzBindAddress) insecure.metrics = { host: mp.host, port: Number(mp.port) };
  return {
    brand,
    naming,
    completed,
    configuration: cfg,
    master: f.master,
    writeConfigTo: f.writeConfigTo,
    featureGates: f.featureGates ?? {},
    secure: secureServingFrom(f),
    insecure,
    authentication: authenticationFrom(f),
    authorization: authorizationFrom(f),
    metrics: {
      currentVersion: SCHEDULER_RELEASE,
      showHiddenMetricsForVersion: f.showHiddenMetricsForVersion,
      disabledMetrics: f.disabledMetrics,
      allowListedLabels: f.allowMetricLabels,
    },
  };
}
