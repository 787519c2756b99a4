/**
 * KubeSchedulerConfiguration (`kubescheduler.config.orch.io/v1beta1`), the parts the library
 * uses: profiles with plugins per extension point, plugin args, and queue/scoring knobs.
 */
import type { ExtensionPoint } from '../framework/interfaces.js';

export interface PluginEntry {
  name: string;
  /** Score weight (score extension point only); unset or 0 means 1. */
  weight?: number;
}

export interface PluginSet {
  enabled?: PluginEntry[];
  /** Names to drop from the defaults; `*` drops them all. */
  disabled?: PluginEntry[];
}

export type Plugins = Partial<Record<ExtensionPoint, PluginSet>>;

export interface PluginConfig {
  name: string;
  args?: unknown;
}

export interface KubeSchedulerProfile {
  schedulerName?: string;
  plugins?: Plugins;
  pluginConfig?: PluginConfig[];
}

/** component-base LeaderElectionConfiguration (durations as Go duration strings). */
export interface LeaderElectionConfiguration {
  leaderElect?: boolean;
  leaseDuration?: string;
  renewDeadline?: string;
  retryPeriod?: string;
  resourceLock?: string;
  resourceName?: string;
  resourceNamespace?: string;
}

/** component-base ClientConnectionConfiguration. */
export interface ClientConnectionConfiguration {
  kubeconfig?: string;
  acceptContentTypes?: string;
  contentType?: string;
  qps?: number;
  burst?: number;
}

export interface ExtenderTLSConfig {
  insecure?: boolean;
  serverName?: string;
  certFile?: string;
  keyFile?: string;
  caFile?: string;
  certData?: string;
  keyData?: string;
  caData?: string;
}

export interface ExtenderManagedResource {
  name: string;
  ignoredByScheduler?: boolean;
}

/** An HTTP scheduler extender (v1beta1 Extender). */
export interface Extender {
  urlPrefix: string;
  filterVerb?: string;
  preemptVerb?: string;
  prioritizeVerb?: string;
  weight?: number;
  bindVerb?: string;
  enableHTTPS?: boolean;
  tlsConfig?: ExtenderTLSConfig;
  httpTimeout?: string;
  nodeCacheCapable?: boolean;
  managedResources?: ExtenderManagedResource[];
  ignorable?: boolean;
}

export interface KubeSchedulerConfiguration {
  apiVersion?: string;
  kind?: string;
  parallelism?: number;
  leaderElection?: LeaderElectionConfiguration;
  clientConnection?: ClientConnectionConfiguration;
  healthzBindAddress?: string;
  metricsBindAddress?: string;
  enableProfiling?: boolean;
  enableContentionProfiling?: boolean;
  profiles?: KubeSchedulerProfile[];
  /** 0 (default) means upstream's adaptive percentage. */
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  extenders?: Extender[];
}

/** Plugins per extension point after merging a profile with the defaults. */
export type ResolvedPlugins = Record<ExtensionPoint, PluginEntry[]>;

export interface ResolvedProfile {
  schedulerName: string;
  plugins: ResolvedPlugins;
  /** Args by plugin name, as given (plugins apply their own defaults). */
  pluginArgs: Map<string, unknown>;
}

export interface ResolvedConfiguration {
  profiles: ResolvedProfile[];
  percentageOfNodesToScore: number;
  podInitialBackoffMs: number;
  podMaxBackoffMs: number;
}
