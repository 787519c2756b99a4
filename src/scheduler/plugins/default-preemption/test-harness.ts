/**
 * Test fixtures for DefaultPreemption, after upstream's st.MakePod/MakeNode and fake filter
 * plugins: a Framework over a fixed snapshot, a simulated cluster as listers, deletions recorded.
 */
import { FakeClock } from '../../framework/clock.js';
import type { CycleState } from '../../framework/cycle-state.js';
import type { FilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { type PluginRef, type ProfilePlugins, Framework } from '../../framework/runtime.js';
import { type Snapshot, snapshotOf } from '../../framework/snapshot.js';
import { Code, SUCCESS, Status, unschedulable } from '../../framework/status.js';
import type { Node, Pod, PodDisruptionBudget, ResourceList } from '../../framework/types.js';
import { ORCH_NAMES } from '../../framework/well-known.js';
import { Nominator } from '../../queue/nominator.js';
import { SimulatedCluster } from '../../simulator/cluster.js';
import { IN_TREE_REGISTRY } from '../registry.js';
import type { DefaultPreemption, DefaultPreemptionArgs } from './default-preemption.js';

export const NEG = -100;
export const LOW = 0;
export const MID = 100;
export const HIGH = 1000;
export const VERY_HIGH = 10000;
export const SMALL: ResourceList = { cpu: '100m', memory: '100' };
export const MEDIUM: ResourceList = { cpu: '200m', memory: '200' };
export const LARGE: ResourceList = { cpu: '300m', memory: '300' };
export const VERY_LARGE: ResourceList = { cpu: '500m', memory: '500' };

export interface PodOpts {
  node?: string;
  priority?: number;
  req?: ResourceList;
  labels?: Record<string, string>;
  /** status.startTime as ms since the epoch (upstream's epochTimeN). */
  start?: number;
  nominated?: string;
  terminating?: boolean;
  preemptionPolicy?: string;
  spec?: Partial<Pod['spec']>;
}

/** A pod named and UID'd `name` in namespace default. */
export function mkPod(name: string, o: PodOpts = {}): Pod {
  const status: Pod['status'] = {};
  if (o.start !== undefined) status.startTime = new Date(o.start).toISOString();
  if (o.nominated !== undefined) status.nominatedNodeName = o.nominated;
  return {
    metadata: { name, namespace: 'default', uid: name, labels: o.labels, deletionTimestamp: o.terminating ? '2024-01-01T00:00:00Z' : undefined },
    spec: {
      nodeName: o.node,
      priority: o.priority,
      preemptionPolicy: o.preemptionPolicy,
      containers: [{ name: 'c', resources: o.req ? { requests: o.req } : {} }],
      ...o.spec,
    },
    status,
  };
}

const LABEL_KEYS = ['hostname', 'zone', 'region'];

/** A node named like upstream's tests: `name/zone/region` gives labels hostname, zone, region. */
export function mkNode(spec: string, alloc: ResourceList = VERY_LARGE): Node {
  const parts = spec.split('/');
  const labels: Record<string, string> = {};
  parts.forEach((v, i) => {
    labels[LABEL_KEYS[i]] = v;
  });
  return { metadata: { name: parts[0], labels }, status: { allocatable: { pods: '32', ...alloc }, capacity: { pods: '32', ...alloc } } };
}

/** Upstream's FakeFilterPlugin: counts calls, fails nodes with the code configured for them. */
export class FakeFilter implements FilterPlugin {
  readonly name = 'FakeFilter';
  calls = 0;
  code: Code = Code.Success;

  filter(_s: CycleState, _p: Pod, _ni: NodeInfo): Status {
    this.calls++;
    return this.code === Code.Success ? SUCCESS : new Status(this.code);
  }
}

const fake =
  (f: (pod: Pod, ni: NodeInfo) => boolean, name: string): PluginFactory =>
  () =>
    ({ name, filter: (_s: CycleState, p: Pod, ni: NodeInfo) => (f(p, ni) ? SUCCESS : unschedulable('Nodes failed the fake plugin')) }) as FilterPlugin;

export interface EnvOptions {
  nodes: Node[];
  pods: Pod[];
  /** The preemptor (added to the cluster so preempt() finds its latest copy). */
  preemptor?: Pod;
  /** Filter plugins after FakeFilter: real ones by name, or TrueFilter / FalseFilter / MatchFilter. */
  filters: string[];
  /** PreFilter plugins (real ones) the filters need. */
  preFilters?: string[];
  pdbs?: PodDisruptionBudget[];
  args?: DefaultPreemptionArgs;
}

export interface Env {
  fwk: Framework;
  pl: DefaultPreemption;
  fakeFilter: FakeFilter;
  cluster: SimulatedCluster;
  snapshot: Snapshot;
  deleted: string[];
  /** Rebuilds the snapshot from the given pods (after marking victims terminating, say). */
  resnapshot(pods: Pod[]): void;
}

/** True when a plugin other engineers are writing is registered yet. */
export const hasPlugin = (name: string): boolean => IN_TREE_REGISTRY.has(name);

export function makeEnv(o: EnvOptions): Env {
  const clock = new FakeClock(0);
  const cluster = new SimulatedCluster(clock);
  for (const p of o.pods) cluster.addPod(p);
  if (o.preemptor !== undefined) cluster.addPod(o.preemptor);
  for (const pdb of o.pdbs ?? []) cluster.addObject(cluster.podDisruptionBudgets, pdb, true);
  const fakeFilter = new FakeFilter();
  const registry = new Map<string, PluginFactory>(IN_TREE_REGISTRY);
  registry.set('FakeFilter', () => fakeFilter);
  registry.set(
    'TrueFilter',
    fake(() => true, 'TrueFilter'),
  );
  registry.set(
    'FalseFilter',
    fake(() => false, 'FalseFilter'),
  );
  registry.set(
    'MatchFilter',
    fake((p, ni) => p.metadata.name === ni.name, 'MatchFilter'),
  );
  const refs = (names: string[]): PluginRef[] => names.map((name) => ({ name }));
  const plugins: ProfilePlugins = {
    queueSort: refs(['PrioritySort']),
    preFilter: refs(o.preFilters ?? []),
    filter: refs(['FakeFilter', ...o.filters]),
    postFilter: refs(['DefaultPreemption']),
    preScore: [],
    score: [],
    reserve: [],
    permit: [],
    preBind: [],
    bind: refs(['DefaultBinder']),
    postBind: [],
  };
  const deleted: string[] = [];
  const env = {} as Env;
  env.snapshot = snapshotOf(o.pods, o.nodes);
  env.resnapshot = (pods) => {
    env.snapshot = snapshotOf(pods, o.nodes);
  };
  env.fwk = new Framework({
    profileName: 'default-scheduler',
    plugins,
    pluginArgs: new Map([['DefaultPreemption', o.args]]),
    registry,
    deps: {
      names: ORCH_NAMES,
      clock,
      listers: cluster,
      binder: cluster,
      client: {
        updatePodStatus: (pod, cond, nnn) => cluster.updatePodStatus(pod, cond, nnn),
        deletePod: async (pod) => {
          deleted.push(pod.metadata.name ?? '');
        },
      },
      eventRecorder: cluster,
      nominator: new Nominator(),
      snapshot: () => env.snapshot,
    },
  });
  env.pl = env.fwk.pluginsByName.get('DefaultPreemption') as DefaultPreemption;
  env.fakeFilter = fakeFilter;
  env.cluster = cluster;
  env.deleted = deleted;
  return env;
}

/** Runs the framework's PreFilter plugins into a fresh state, as upstream's tests do. */
export function preFiltered(env: Env, pod: Pod): CycleState {
  const state = env.fwk.newCycleState();
  const s = env.fwk.runPreFilterPlugins(state, pod);
  if (!s.isSuccess()) throw new Error(`unexpected PreFilter status ${s}`);
  return state;
}
