/**
 * The completed configuration: Kubernetes 1.21's v1beta1 SetDefaults_KubeSchedulerConfiguration
 * (every field filled) and then what the framework records of each profile (its plugins merged
 * with the defaults, the args of each enabled plugin). This is the object `/configz` serves and
 * `--write-config-to` writes, and what the runtime is started with.
 */
import { isIP } from 'node:net';
import type { Brand } from '../../machinery/brand.js';
import { formatDurationMs, parseDuration } from '../../machinery/duration.js';
import { EXTENSION_POINTS } from '../framework/interfaces.js';
import { DEFAULT_SCHEDULER_NAME, defaultPlugins, mergePluginSet } from './defaults.js';
import { defaultedArgs } from './plugin-args.js';
import type { KubeSchedulerConfiguration, KubeSchedulerProfile, PluginEntry } from './types.js';

/** Upstream's DefaultInsecureSchedulerPort. */
export const DEFAULT_INSECURE_SCHEDULER_PORT = 10251;
/** Upstream's DefaultKubeSchedulerPort (HTTPS). */
export const DEFAULT_SECURE_SCHEDULER_PORT = 10259;

/** The names a brand gives the configuration: its API group and the lock's name and namespace. */
export interface SchedulerNaming {
  /** `kubescheduler.config.orch.io/v1beta1` (compat: `kubescheduler.config.k8s.io/v1beta1`). */
  apiVersion: string;
  lockName: string;
  lockNamespace: string;
  contentType: string;
}

export function schedulerNaming(brand: Brand): SchedulerNaming {
  return {
    apiVersion: `kubescheduler.config.${brand.domain}/v1beta1`,
    lockName: `${brand.word}-scheduler`,
    lockNamespace: brand.systemNamespace,
    contentType: brand.protobufMediaType,
  };
}

/** A profile as the framework records it: every extension point listed, args of every enabled plugin. */
export interface CompletedProfile {
  schedulerName: string;
  plugins: Record<string, { enabled?: Required<PluginEntry>[]; disabled: Required<PluginEntry>[] }>;
  pluginConfig: { name: string; args: Record<string, unknown> }[];
}

/** Every field present (v1beta1 JSON names), durations as Go duration strings. */
export interface CompletedConfiguration {
  apiVersion: string;
  kind: 'KubeSchedulerConfiguration';
  parallelism: number;
  leaderElection: {
    leaderElect: boolean;
    leaseDuration: string;
    renewDeadline: string;
    retryPeriod: string;
    resourceLock: string;
    resourceName: string;
    resourceNamespace: string;
  };
  clientConnection: { kubeconfig: string; acceptContentTypes: string; contentType: string; qps: number; burst: number };
  healthzBindAddress: string;
  metricsBindAddress: string;
  enableProfiling: boolean;
  enableContentionProfiling: boolean;
  percentageOfNodesToScore: number;
  podInitialBackoffSeconds: number;
  podMaxBackoffSeconds: number;
  profiles: CompletedProfile[];
  extenders?: KubeSchedulerConfiguration['extenders'];
}

/** v1beta1 defaulting of the bind addresses: `:1234` → `0.0.0.0:1234`, a bare IP gets 10251, anything else the default. */
export function defaultBindAddress(value: string | undefined): string {
  const fallback = `0.0.0.0:${DEFAULT_INSECURE_SCHEDULER_PORT}`;
  if (value === undefined) return fallback;
  const split = splitHostPort(value);
  if (split) return joinHostPort(split.host === '' ? '0.0.0.0' : split.host, split.port);
  if (isIP(value) !== 0) return joinHostPort(value, String(DEFAULT_INSECURE_SCHEDULER_PORT));
  return fallback;
}

/** Go's net.SplitHostPort (the forms it accepts); undefined where it errors. */
export function splitHostPort(value: string): { host: string; port: string } | undefined {
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0 || value[end + 1] !== ':') return undefined;
    const host = value.slice(1, end);
    const port = value.slice(end + 2);
    return port.includes(':') ? undefined : { host, port };
  }
  const colon = value.lastIndexOf(':');
  if (colon < 0) return undefined;
  const host = value.slice(0, colon);
  if (host.includes(':')) return undefined;
  return { host, port: value.slice(colon + 1) };
}

export function joinHostPort(host: string, port: string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

// A metav1.Duration field: zero (or absent) takes the default, as RecommendedDefaultLeaderElectionConfiguration does.
function durationOr(value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  const ms = parseDuration(value);
  return ms === 0 ? fallback : formatDurationMs(ms);
}

/** The configuration with every v1beta1 default filled and each profile completed. */
export function completeConfiguration(cfg: KubeSchedulerConfiguration, naming: SchedulerNaming): CompletedConfiguration {
  const le = cfg.leaderElection ?? {};
  const cc = cfg.clientConnection ?? {};
  const profiles: KubeSchedulerProfile[] = cfg.profiles && cfg.profiles.length > 0 ? cfg.profiles : [{}];
  // Upstream names the profile only when there is exactly one; validation catches the others.
  const named = profiles.length === 1 && profiles[0].schedulerName === undefined ? [{ ...profiles[0], schedulerName: DEFAULT_SCHEDULER_NAME }] : profiles;
  const enableProfiling = cfg.enableProfiling ?? true;
  const out: CompletedConfiguration = {
    apiVersion: naming.apiVersion,
    kind: 'KubeSchedulerConfiguration',
    parallelism: cfg.parallelism ?? 16,
    leaderElection: {
      leaderElect: le.leaderElect ?? true,
      leaseDuration: durationOr(le.leaseDuration, '15s'),
      renewDeadline: durationOr(le.renewDeadline, '10s'),
      retryPeriod: durationOr(le.retryPeriod, '2s'),
      resourceLock: le.resourceLock || 'leases',
      resourceName: le.resourceName || naming.lockName,
      resourceNamespace: le.resourceNamespace || naming.lockNamespace,
    },
    clientConnection: {
      kubeconfig: cc.kubeconfig ?? '',
      acceptContentTypes: cc.acceptContentTypes ?? '',
      contentType: cc.contentType || naming.contentType,
      // The scheduler's own opinion: 0 means unset.
      qps: cc.qps || 50,
      burst: cc.burst || 100,
    },
    healthzBindAddress: defaultBindAddress(cfg.healthzBindAddress),
    metricsBindAddress: defaultBindAddress(cfg.metricsBindAddress),
    enableProfiling,
    enableContentionProfiling: cfg.enableContentionProfiling ?? enableProfiling,
    percentageOfNodesToScore: cfg.percentageOfNodesToScore ?? 0,
    podInitialBackoffSeconds: cfg.podInitialBackoffSeconds ?? 1,
    podMaxBackoffSeconds: cfg.podMaxBackoffSeconds ?? 10,
    profiles: named.map((p) => completeProfile(p, naming.apiVersion)),
  };
  if (cfg.extenders && cfg.extenders.length > 0) out.extenders = cfg.extenders;
  return out;
}

/** A profile merged with the default plugins, with the args of each enabled plugin that takes args (sorted by name). */
export function completeProfile(profile: KubeSchedulerProfile, apiVersion: string): CompletedProfile {
  const base = defaultPlugins();
  const plugins: CompletedProfile['plugins'] = {};
  const enabledNames = new Set<string>();
  for (const ep of EXTENSION_POINTS) {
    const merged = mergePluginSet(base[ep], profile.plugins?.[ep]);
    for (const e of merged) enabledNames.add(e.name);
    // Every default disabled and the result listed, as the writer of 1.22 and later does, so
    // the completed profile read back as a file runs exactly these plugins.
    const disabled = [{ name: '*', weight: 0 }];
    plugins[ep] = merged.length > 0 ? { enabled: merged.map((e) => ({ name: e.name, weight: e.weight ?? 0 })), disabled } : { disabled };
  }
  const given = new Map<string, unknown>();
  for (const pc of profile.pluginConfig ?? []) given.set(pc.name, pc.args);
  const pluginConfig: CompletedProfile['pluginConfig'] = [];
  for (const name of [...enabledNames].sort()) {
    const args = defaultedArgs(name, given.get(name), apiVersion);
    if (args) pluginConfig.push({ name, args });
  }
  // Args given for plugins that are not enabled (or have no args kind) are kept as given.
  for (const pc of profile.pluginConfig ?? []) {
    if (!pluginConfig.some((p) => p.name === pc.name)) pluginConfig.push({ name: pc.name, args: (pc.args ?? {}) as Record<string, unknown> });
  }
  return { schedulerName: profile.schedulerName ?? '', plugins, pluginConfig };
}

/** The completed configuration read back as the library's input (a round trip of --write-config-to keeps it). */
export function asConfiguration(c: CompletedConfiguration): KubeSchedulerConfiguration {
  return structuredClone(c) as unknown as KubeSchedulerConfiguration;
}
