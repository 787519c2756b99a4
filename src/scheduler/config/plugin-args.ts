/**
 * The typed plugin arguments of v1beta1 (`<Plugin>Args` kinds) and their defaults, as Kubernetes
 * 1.21's v1beta1 SetDefaults_<Plugin>Args fill them. A plugin without an args kind takes none.
 * The framework records, for every enabled plugin with an args kind, the args it runs with
 * (given ones defaulted, otherwise the defaults): that is what /configz and --write-config-to show.
 */
import { isPlainObject } from '../../machinery/object.js';

type Args = Record<string, unknown>;

const CPU_MEMORY = () => [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

/** Defaulting per args kind, applied to a copy of the given args (never to the caller's object). */
const DEFAULTERS = new Map<string, (a: Args) => void>([
  [
    'DefaultPreemption',
    (a) => {
      a.minCandidateNodesPercentage ??= 10;
      a.minCandidateNodesAbsolute ??= 100;
    },
  ],
  [
    'InterPodAffinity',
    (a) => {
      a.hardPodAffinityWeight ??= 1;
    },
  ],
  ['NodeAffinity', () => {}],
  ['NodeLabel', () => {}],
  ['NodeResourcesFit', () => {}],
  [
    'NodeResourcesLeastAllocated',
    (a) => {
      if (!Array.isArray(a.resources) || a.resources.length === 0) a.resources = CPU_MEMORY();
    },
  ],
  [
    'NodeResourcesMostAllocated',
    (a) => {
      if (!Array.isArray(a.resources) || a.resources.length === 0) a.resources = CPU_MEMORY();
    },
  ],
  [
    'PodTopologySpread',
    (a) => {
      // DefaultPodTopologySpread is on in 1.21: System unless constraints are listed.
      if (a.defaultingType === undefined || a.defaultingType === '') {
        a.defaultingType = Array.isArray(a.defaultConstraints) && a.defaultConstraints.length > 0 ? 'List' : 'System';
      }
    },
  ],
  [
    'RequestedToCapacityRatio',
    (a) => {
      if (!Array.isArray(a.resources) || a.resources.length === 0) a.resources = CPU_MEMORY();
    },
  ],
  ['ServiceAffinity', () => {}],
  [
    'VolumeBinding',
    (a) => {
      a.bindTimeoutSeconds ??= 600;
    },
  ],
]);

/** True when the plugin has a v1beta1 args kind. */
export function hasArgsKind(plugin: string): boolean {
  return DEFAULTERS.has(plugin);
}

/**
 * The args a plugin runs with, in their v1beta1 encoding (`apiVersion`, `kind: <Plugin>Args`):
 * the given ones with defaults filled, or the defaults. Undefined for plugins without args.
 */
export function defaultedArgs(plugin: string, given: unknown, apiVersion: string): Args | undefined {
  const defaulter = DEFAULTERS.get(plugin);
  if (!defaulter) return undefined;
  const args: Args = isPlainObject(given) ? structuredClone(given) : {};
  delete args.apiVersion;
  delete args.kind;
  defaulter(args);
  return { apiVersion, kind: `${plugin}Args`, ...args };
}
