/**
 * Defaults of the v1beta1 configuration the spec describes (Kubernetes 1.21's
 * getDefaultPlugins, DefaultPodTopologySpread on so SelectorSpread is off, VolumeCapacityPriority
 * off) and upstream's mergePluginSet: defaults minus `disabled` (all of them with `*`), then
 * the profile's `enabled` appended.
 */
import { EXTENSION_POINTS, type ExtensionPoint } from '../framework/interfaces.js';
import type {
  KubeSchedulerConfiguration,
  KubeSchedulerProfile,
  PluginEntry,
  PluginSet,
  ResolvedConfiguration,
  ResolvedPlugins,
  ResolvedProfile,
} from './types.js';

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
export const DEFAULT_POD_INITIAL_BACKOFF_SECONDS = 1;
export const DEFAULT_POD_MAX_BACKOFF_SECONDS = 10;
/** 0: the adaptive percentage (50% minus 1% per 125 nodes, at least 5%). */
export const DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE = 0;

const p = (...names: string[]): PluginEntry[] => names.map((name) => ({ name }));

/** Upstream 1.21 pkg/scheduler/apis/config/v1beta1/default_plugins.go getDefaultPlugins. */
export function defaultPlugins(): ResolvedPlugins {
  return {
    queueSort: p('PrioritySort'),
    preFilter: p('NodeResourcesFit', 'NodePorts', 'PodTopologySpread', 'InterPodAffinity', 'VolumeBinding', 'NodeAffinity'),
    filter: p(
      'NodeUnschedulable',
      'NodeName',
      'TaintToleration',
      'NodeAffinity',
      'NodePorts',
      'NodeResourcesFit',
      'VolumeRestrictions',
      'EBSLimits',
      'GCEPDLimits',
      'NodeVolumeLimits',
      'AzureDiskLimits',
      'VolumeBinding',
      'VolumeZone',
      'PodTopologySpread',
      'InterPodAffinity',
    ),
    postFilter: p('DefaultPreemption'),
    preScore: p('InterPodAffinity', 'PodTopologySpread', 'TaintToleration', 'NodeAffinity'),
    score: [
      { name: 'NodeResourcesBalancedAllocation', weight: 1 },
      { name: 'ImageLocality', weight: 1 },
      { name: 'InterPodAffinity', weight: 1 },
      { name: 'NodeResourcesLeastAllocated', weight: 1 },
      { name: 'NodeAffinity', weight: 1 },
      { name: 'NodePreferAvoidPods', weight: 10000 },
      // Doubled upstream: a user preference, made comparable to NodeResourcesLeastAllocated.
      { name: 'PodTopologySpread', weight: 2 },
      { name: 'TaintToleration', weight: 1 },
    ],
    reserve: p('VolumeBinding'),
    permit: [],
    preBind: p('VolumeBinding'),
    bind: p('DefaultBinder'),
    postBind: [],
  };
}

/** Upstream's mergePluginSet for one extension point. */
export function mergePluginSet(defaults: readonly PluginEntry[], custom: PluginSet | undefined): PluginEntry[] {
  const disabled = new Set((custom?.disabled ?? []).map((e) => e.name));
  const out = disabled.has('*') ? [] : defaults.filter((e) => !disabled.has(e.name)).map((e) => ({ ...e }));
  for (const e of custom?.enabled ?? []) out.push({ ...e });
  return out;
}

/** A profile merged with the defaults; schedulerName defaults to default-scheduler. */
export function resolveProfile(profile: KubeSchedulerProfile, base: ResolvedPlugins = defaultPlugins()): ResolvedProfile {
  const plugins = {} as ResolvedPlugins;
  for (const ep of EXTENSION_POINTS) plugins[ep as ExtensionPoint] = mergePluginSet(base[ep], profile.plugins?.[ep]);
  const pluginArgs = new Map<string, unknown>();
  for (const pc of profile.pluginConfig ?? []) pluginArgs.set(pc.name, pc.args);
  return { schedulerName: profile.schedulerName || DEFAULT_SCHEDULER_NAME, plugins, pluginArgs };
}

/** The configuration with defaults applied (one default-scheduler profile when none is given). */
export function resolveConfiguration(cfg: KubeSchedulerConfiguration = {}): ResolvedConfiguration {
  const profiles = cfg.profiles !== undefined && cfg.profiles.length > 0 ? cfg.profiles : [{ schedulerName: DEFAULT_SCHEDULER_NAME }];
  return {
    profiles: profiles.map((pr) => resolveProfile(pr)),
    percentageOfNodesToScore: cfg.percentageOfNodesToScore ?? DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE,
    podInitialBackoffMs: (cfg.podInitialBackoffSeconds ?? DEFAULT_POD_INITIAL_BACKOFF_SECONDS) * 1000,
    podMaxBackoffMs: (cfg.podMaxBackoffSeconds ?? DEFAULT_POD_MAX_BACKOFF_SECONDS) * 1000,
  };
}
