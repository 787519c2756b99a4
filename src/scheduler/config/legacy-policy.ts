/**
 * The deprecated ways of choosing plugins, translated as Kubernetes 1.21 did: a scheduler
 * Policy (`--policy-config-file`, `--policy-configmap`) becomes the one profile's plugins through
 * the legacy registry (predicates in their fixed order, then priorities sorted by name, each
 * adding its plugins and args; PrioritySort, DefaultPreemption and DefaultBinder always), and
 * `--algorithm-provider` picks the default plugin set (`DefaultProvider`) or the one packing
 * nodes (`ClusterAutoscalerProvider`: NodeResourcesMostAllocated for NodeResourcesLeastAllocated).
 * Both are written back as ordinary profile plugins (every default disabled, the result enabled),
 * so everything downstream reads one kind of configuration.
 */
import { EXTENSION_POINTS, type ExtensionPoint } from '../framework/interfaces.js';
import { defaultPlugins, mergePluginSet } from './defaults.js';
import type { Extender, KubeSchedulerProfile, PluginConfig, PluginEntry, Plugins, ResolvedPlugins } from './types.js';

export const ALGORITHM_PROVIDERS = ['ClusterAutoscalerProvider', 'DefaultProvider'] as const;

/** The base plugin set of an algorithm provider; throws upstream's error for an unknown one. */
export function providerPlugins(provider: string): ResolvedPlugins {
  const base = defaultPlugins();
  if (provider === 'DefaultProvider') return base;
  if (provider === 'ClusterAutoscalerProvider') {
    base.score = base.score.map((p) => (p.name === 'NodeResourcesLeastAllocated' ? { ...p, name: 'NodeResourcesMostAllocated' } : p));
    return base;
  }
  throw new Error(`algorithm provider ${JSON.stringify(provider)} is not registered`);
}

/** Profile plugins that run exactly `set`: every default disabled, the set enabled. */
export function explicitPlugins(set: ResolvedPlugins): Plugins {
  const out: Plugins = {};
  for (const ep of EXTENSION_POINTS) out[ep] = { enabled: set[ep].map((e) => ({ ...e })), disabled: [{ name: '*' }] };
  return out;
}

/** A profile merged over a provider's base, written as explicit plugins. */
export function withProvider(profile: KubeSchedulerProfile, provider: string): KubeSchedulerProfile {
  const base = providerPlugins(provider);
  const merged = {} as ResolvedPlugins;
  for (const ep of EXTENSION_POINTS) merged[ep] = mergePluginSet(base[ep], profile.plugins?.[ep]);
  return { ...profile, plugins: explicitPlugins(merged) };
}

// ---- Policy (v1) ----

export interface PolicyDocument {
  kind?: string;
  apiVersion?: string;
  predicates?: { name: string; argument?: PredicateArgument }[] | null;
  priorities?: { name: string; weight?: number; argument?: PriorityArgument }[] | null;
  extenders?: Extender[];
  hardPodAffinitySymmetricWeight?: number;
  alwaysCheckAllPredicates?: boolean;
}

interface PredicateArgument {
  serviceAffinity?: { labels?: string[] };
  labelsPresence?: { labels?: string[]; presence?: boolean };
}

interface PriorityArgument {
  serviceAntiAffinity?: { label?: string };
  labelPreference?: { label?: string; presence?: boolean };
  requestedToCapacityRatioArguments?: { shape?: { utilization: number; score: number }[]; resources?: { name: string; weight?: number }[] };
}

interface ProducerArgs {
  weight: number;
  nodeLabel?: { presentLabels?: string[]; absentLabels?: string[]; presentLabelsPreference?: string[]; absentLabelsPreference?: string[] };
  serviceAffinity?: { affinityLabels?: string[]; antiAffinityLabelsPreference?: string[] };
  requestedToCapacityRatio?: Record<string, unknown>;
  interPodAffinity?: { hardPodAffinityWeight: number };
}

type Producer = (args: ProducerArgs, plugins: ResolvedPlugins, config: PluginConfig[]) => void;

/** appendToPluginSet: once per name, keeping the larger weight. */
function add(plugins: ResolvedPlugins, ep: ExtensionPoint, name: string, weight?: number): void {
  const hit = plugins[ep].find((e) => e.name === name);
  if (hit) {
    if (weight !== undefined && weight > (hit.weight ?? 0)) hit.weight = weight;
    return;
  }
  const e: PluginEntry = { name };
  if (weight !== undefined) e.weight = weight;
  plugins[ep].push(e);
}

const PREDICATES = new Map<string, Producer>([
  [
    'GeneralPredicates',
    (_a, p) => {
      add(p, 'filter', 'NodeResourcesFit');
      add(p, 'preFilter', 'NodeResourcesFit');
      add(p, 'filter', 'NodeName');
      add(p, 'filter', 'NodePorts');
      add(p, 'preFilter', 'NodePorts');
      add(p, 'filter', 'NodeAffinity');
      add(p, 'preFilter', 'NodeAffinity');
    },
  ],
  ['PodToleratesNodeTaints', (_a, p) => add(p, 'filter', 'TaintToleration')],
  [
    'PodFitsResources',
    (_a, p) => {
      add(p, 'filter', 'NodeResourcesFit');
      add(p, 'preFilter', 'NodeResourcesFit');
    },
  ],
  ['HostName', (_a, p) => add(p, 'filter', 'NodeName')],
  [
    'PodFitsHostPorts',
    (_a, p) => {
      add(p, 'filter', 'NodePorts');
      add(p, 'preFilter', 'NodePorts');
    },
  ],
  [
    'MatchNodeSelector',
    (_a, p) => {
      add(p, 'filter', 'NodeAffinity');
      add(p, 'preFilter', 'NodeAffinity');
    },
  ],
  ['CheckNodeUnschedulable', (_a, p) => add(p, 'filter', 'NodeUnschedulable')],
  [
    'CheckVolumeBinding',
    (_a, p) => {
      add(p, 'preFilter', 'VolumeBinding');
      add(p, 'filter', 'VolumeBinding');
      add(p, 'reserve', 'VolumeBinding');
      add(p, 'preBind', 'VolumeBinding');
    },
  ],
  ['NoDiskConflict', (_a, p) => add(p, 'filter', 'VolumeRestrictions')],
  ['NoVolumeZoneConflict', (_a, p) => add(p, 'filter', 'VolumeZone')],
  ['MaxCSIVolumeCountPred', (_a, p) => add(p, 'filter', 'NodeVolumeLimits')],
  ['MaxEBSVolumeCount', (_a, p) => add(p, 'filter', 'EBSLimits')],
  ['MaxGCEPDVolumeCount', (_a, p) => add(p, 'filter', 'GCEPDLimits')],
  ['MaxAzureDiskVolumeCount', (_a, p) => add(p, 'filter', 'AzureDiskLimits')],
  ['MaxCinderVolumeCount', (_a, p) => add(p, 'filter', 'CinderLimits')],
  [
    'MatchInterPodAffinity',
    (_a, p) => {
      add(p, 'filter', 'InterPodAffinity');
      add(p, 'preFilter', 'InterPodAffinity');
    },
  ],
  [
    'CheckNodeLabelPresence',
    (a, p, c) => {
      add(p, 'filter', 'NodeLabel');
      if (a.nodeLabel) c.push({ name: 'NodeLabel', args: a.nodeLabel });
    },
  ],
  [
    'CheckServiceAffinity',
    (a, p, c) => {
      add(p, 'filter', 'ServiceAffinity');
      if (a.serviceAffinity) c.push({ name: 'ServiceAffinity', args: a.serviceAffinity });
      add(p, 'preFilter', 'ServiceAffinity');
    },
  ],
  [
    'EvenPodsSpread',
    (_a, p) => {
      add(p, 'preFilter', 'PodTopologySpread');
      add(p, 'filter', 'PodTopologySpread');
    },
  ],
]);

const PREDICATE_ORDER = [
  'CheckNodeUnschedulable',
  'GeneralPredicates',
  'HostName',
  'PodFitsHostPorts',
  'MatchNodeSelector',
  'PodFitsResources',
  'NoDiskConflict',
  'PodToleratesNodeTaints',
  'CheckNodeLabelPresence',
  'CheckServiceAffinity',
  'MaxEBSVolumeCount',
  'MaxGCEPDVolumeCount',
  'MaxCSIVolumeCountPred',
  'MaxAzureDiskVolumeCount',
  'MaxCinderVolumeCount',
  'CheckVolumeBinding',
  'NoVolumeZoneConflict',
  'EvenPodsSpread',
  'MatchInterPodAffinity',
];

const MANDATORY_PREDICATES = ['PodToleratesNodeTaints', 'CheckNodeUnschedulable'];
const DEFAULT_PREDICATES = [
  'NoVolumeZoneConflict',
  'MaxEBSVolumeCount',
  'MaxGCEPDVolumeCount',
  'MaxAzureDiskVolumeCount',
  'MaxCSIVolumeCountPred',
  'MatchInterPodAffinity',
  'NoDiskConflict',
  'GeneralPredicates',
  'PodToleratesNodeTaints',
  'CheckVolumeBinding',
  'CheckNodeUnschedulable',
  'EvenPodsSpread',
];
const DEFAULT_PRIORITIES = new Map<string, number>([
  ['SelectorSpreadPriority', 1],
  ['InterPodAffinityPriority', 1],
  ['LeastRequestedPriority', 1],
  ['BalancedResourceAllocation', 1],
  ['NodePreferAvoidPodsPriority', 10000],
  ['NodeAffinityPriority', 1],
  ['TaintTolerationPriority', 1],
  ['ImageLocalityPriority', 1],
  ['EvenPodsSpreadPriority', 2],
]);

// DefaultPodTopologySpread is on in 1.21: selector spreading is PodTopologySpread's system defaulting.
function spreadArgs(c: PluginConfig[], defaultingType: 'System' | 'List', override: boolean): void {
  const hit = c.find((e) => e.name === 'PodTopologySpread');
  if (hit) {
    if (override) hit.args = { defaultingType };
    return;
  }
  c.push({ name: 'PodTopologySpread', args: { defaultingType } });
}

const PRIORITIES = new Map<string, Producer>([
  [
    'SelectorSpreadPriority',
    (a, p, c) => {
      add(p, 'score', 'PodTopologySpread', a.weight);
      add(p, 'preScore', 'PodTopologySpread');
      spreadArgs(c, 'System', true);
    },
  ],
  [
    'TaintTolerationPriority',
    (a, p) => {
      add(p, 'preScore', 'TaintToleration');
      add(p, 'score', 'TaintToleration', a.weight);
    },
  ],
  [
    'NodeAffinityPriority',
    (a, p) => {
      add(p, 'preScore', 'NodeAffinity');
      add(p, 'score', 'NodeAffinity', a.weight);
    },
  ],
  ['ImageLocalityPriority', (a, p) => add(p, 'score', 'ImageLocality', a.weight)],
  [
    'InterPodAffinityPriority',
    (a, p, c) => {
      add(p, 'preScore', 'InterPodAffinity');
      add(p, 'score', 'InterPodAffinity', a.weight);
      if (a.interPodAffinity) c.push({ name: 'InterPodAffinity', args: a.interPodAffinity });
    },
  ],
  ['NodePreferAvoidPodsPriority', (a, p) => add(p, 'score', 'NodePreferAvoidPods', a.weight)],
  ['MostRequestedPriority', (a, p) => add(p, 'score', 'NodeResourcesMostAllocated', a.weight)],
  ['BalancedResourceAllocation', (a, p) => add(p, 'score', 'NodeResourcesBalancedAllocation', a.weight)],
  ['LeastRequestedPriority', (a, p) => add(p, 'score', 'NodeResourcesLeastAllocated', a.weight)],
  [
    'RequestedToCapacityRatio',
    (a, p, c) => {
      add(p, 'score', 'RequestedToCapacityRatio', a.weight);
      if (a.requestedToCapacityRatio) c.push({ name: 'RequestedToCapacityRatio', args: a.requestedToCapacityRatio });
    },
  ],
  [
    'NodeLabel',
    (a, p, c) => {
      // n LabelPreference priorities of weight w make one NodeLabel score plugin of weight n*w.
      const n = (a.nodeLabel?.presentLabelsPreference?.length ?? 0) + (a.nodeLabel?.absentLabelsPreference?.length ?? 0);
      add(p, 'score', 'NodeLabel', a.weight * n);
      if (a.nodeLabel) c.push({ name: 'NodeLabel', args: a.nodeLabel });
    },
  ],
  [
    'ServiceAffinity',
    (a, p, c) => {
      add(p, 'score', 'ServiceAffinity', a.weight * (a.serviceAffinity?.antiAffinityLabelsPreference?.length ?? 0));
      if (a.serviceAffinity) c.push({ name: 'ServiceAffinity', args: a.serviceAffinity });
    },
  ],
  [
    'EvenPodsSpreadPriority',
    (a, p, c) => {
      add(p, 'preScore', 'PodTopologySpread');
      add(p, 'score', 'PodTopologySpread', a.weight);
      spreadArgs(c, 'List', false);
    },
  ],
]);

const MAX_TOTAL_PRIORITY = 2 ** 63 - 1;

/** A Policy translated to the one profile's plugins and args (and its extenders); throws upstream's errors. */
export function policyProfile(policy: PolicyDocument, schedulerName: string): { profile: KubeSchedulerProfile; extenders: Extender[] } {
  const errors: string[] = [];
  for (const pr of policy.priorities ?? []) {
    const w = pr.weight ?? 0;
    if (w <= 0 || w >= MAX_TOTAL_PRIORITY) errors.push(`priority ${pr.name} should have a positive weight applied to it or it has overflown`);
  }
  if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  const args: ProducerArgs = { weight: 0 };
  const predicateKeys = new Set<string>();
  if (policy.predicates === undefined || policy.predicates === null) for (const k of DEFAULT_PREDICATES) predicateKeys.add(k);
  else {
    for (const pred of policy.predicates) predicateKeys.add(processPredicate(pred, args));
  }
  const priorityKeys = new Map<string, number>();
  if (policy.priorities === undefined || policy.priorities === null) for (const [k, w] of DEFAULT_PRIORITIES) priorityKeys.set(k, w);
  else {
    for (const pr of policy.priorities) {
      if (pr.name === 'EqualPriority') continue;
      priorityKeys.set(processPriority(pr, args), pr.weight ?? 0);
    }
  }
  if (policy.hardPodAffinitySymmetricWeight) args.interPodAffinity = { hardPodAffinityWeight: policy.hardPodAffinitySymmetricWeight };
  const plugins = {} as ResolvedPlugins;
  for (const ep of EXTENSION_POINTS) plugins[ep] = [];
  plugins.queueSort.push({ name: 'PrioritySort' });
  plugins.postFilter.push({ name: 'DefaultPreemption' });
  plugins.bind.push({ name: 'DefaultBinder' });
  const config: PluginConfig[] = [];
  const all = new Set([...predicateKeys, ...MANDATORY_PREDICATES]);
  for (const key of PREDICATE_ORDER) {
    if (!all.has(key)) continue;
    PREDICATES.get(key)?.(args, plugins, config);
    all.delete(key);
  }
  for (const key of [...all].sort()) {
    const producer = PREDICATES.get(key);
    if (!producer) throw new Error(`no framework config producer registered for ${JSON.stringify(key)}`);
    producer(args, plugins, config);
  }
  for (const key of [...priorityKeys.keys()].sort()) {
    const producer = PRIORITIES.get(key);
    if (!producer) throw new Error(`no config producer registered for ${JSON.stringify(key)}`);
    producer({ ...args, weight: priorityKeys.get(key) ?? 0 }, plugins, config);
  }
  // dedupPluginConfigs: one entry per plugin; the same plugin twice with different args is an error.
  const deduped: PluginConfig[] = [];
  for (const pc of config) {
    const prev = deduped.find((d) => d.name === pc.name);
    if (!prev) deduped.push(pc);
    else if (JSON.stringify(prev.args) !== JSON.stringify(pc.args)) throw new Error(`found conflicting plugin configs ${JSON.stringify(pc.name)}`);
  }
  return { profile: { schedulerName, plugins: explicitPlugins(plugins), pluginConfig: deduped }, extenders: policy.extenders ?? [] };
}

function processPredicate(pred: { name: string; argument?: PredicateArgument }, args: ProducerArgs): string {
  const name = pred.name === 'PodFitsPorts' ? 'PodFitsHostPorts' : pred.name;
  if (PREDICATES.has(name)) return name;
  const arg = pred.argument;
  if (!arg || (!arg.serviceAffinity && !arg.labelsPresence)) throw new Error(`predicate type not found for ${JSON.stringify(name)}`);
  let key = name;
  if (arg.serviceAffinity) {
    args.serviceAffinity ??= {};
    args.serviceAffinity.affinityLabels = [...(args.serviceAffinity.affinityLabels ?? []), ...(arg.serviceAffinity.labels ?? [])];
    key = 'CheckServiceAffinity';
  }
  if (arg.labelsPresence) {
    args.nodeLabel ??= {};
    const labels = arg.labelsPresence.labels ?? [];
    if (arg.labelsPresence.presence) args.nodeLabel.presentLabels = [...(args.nodeLabel.presentLabels ?? []), ...labels];
    else args.nodeLabel.absentLabels = [...(args.nodeLabel.absentLabels ?? []), ...labels];
    key = 'CheckNodeLabelPresence';
  }
  return key;
}

function processPriority(pr: { name: string; argument?: PriorityArgument }, args: ProducerArgs): string {
  const name = pr.name === 'ServiceSpreadingPriority' ? 'SelectorSpreadPriority' : pr.name;
  if (PRIORITIES.has(name)) return name;
  const arg = pr.argument;
  if (!arg || (!arg.serviceAntiAffinity && !arg.requestedToCapacityRatioArguments && !arg.labelPreference))
    throw new Error(`priority type not found for ${JSON.stringify(name)}`);
  if (arg.serviceAntiAffinity) {
    args.serviceAffinity ??= {};
    args.serviceAffinity.antiAffinityLabelsPreference = [...(args.serviceAffinity.antiAffinityLabelsPreference ?? []), arg.serviceAntiAffinity.label ?? ''];
    return 'ServiceAffinity';
  }
  if (arg.labelPreference) {
    args.nodeLabel ??= {};
    const label = arg.labelPreference.label ?? '';
    if (arg.labelPreference.presence) args.nodeLabel.presentLabelsPreference = [...(args.nodeLabel.presentLabelsPreference ?? []), label];
    else args.nodeLabel.absentLabelsPreference = [...(args.nodeLabel.absentLabelsPreference ?? []), label];
    return 'NodeLabel';
  }
  const r = arg.requestedToCapacityRatioArguments ?? {};
  args.requestedToCapacityRatio = {
    shape: (r.shape ?? []).map((s) => ({ utilization: s.utilization, score: s.score })),
    resources: (r.resources ?? []).map((x) => ({ name: x.name, weight: x.weight ?? 0 })),
  };
  return 'RequestedToCapacityRatio';
}
