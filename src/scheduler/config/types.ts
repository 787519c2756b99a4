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

export interface KubeSchedulerConfiguration {
  apiVersion?: string;
  kind?: string;
  profiles?: KubeSchedulerProfile[];
  /** 0 (default) means upstream's adaptive percentage. */
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
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
