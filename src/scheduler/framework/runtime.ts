/**
 * The framework of one profile: its plugins, instantiated once and sorted into per-extension-
 * point arrays at construction, and the runs of each extension point in configured order.
 * Errors follow upstream: a plugin failing for a reason other than the pod's fit yields an
 * Error status naming the plugin; a throw is treated the same way.
 */
import { NOOP_RECORDER, type SchedulerRecorder } from '../metric-recorder.js';
import type { Clock } from './clock.js';
import { CycleState } from './cycle-state.js';
import type { Binder, EventRecorder, FrameworkHandle, Listers, PodNominator, SchedulerClient, WaitingPod } from './handle.js';
import {
  type BindPlugin,
  EXTENSION_METHOD,
  EXTENSION_POINTS,
  type ExtensionPoint,
  type FilterPlugin,
  MAX_NODE_SCORE,
  MIN_NODE_SCORE,
  type NodeScore,
  type NodeToStatusMap,
  type PermitPlugin,
  type Plugin,
  type PostBindPlugin,
  type PostFilterPlugin,
  type PostFilterResult,
  type PreBindPlugin,
  type PreFilterPlugin,
  type PreScorePlugin,
  type QueuedPodInfo,
  type QueueSortPlugin,
  type ReservePlugin,
  type ScorePlugin,
} from './interfaces.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import type { Registry } from './registry.js';
import type { NodeInfoLister } from './snapshot.js';
import { Code, errorStatus, SUCCESS, Status, unschedulable } from './status.js';
import { type Pod, podPriority, podUID } from './types.js';
import { compileFilterRunner, compileScoreLoop, type FilterRunner, type ScoreLoop } from './plugin-loops.js';
import { WaitingPodImpl } from './waiting-pods.js';
import type { WellKnownNames } from './well-known.js';

/** A plugin as configured at one extension point. */
export interface PluginRef {
  name: string;
  /** Score weight; 0 or absent means 1. */
  weight?: number;
}

/** Plugins per extension point, already merged with the defaults. */
export type ProfilePlugins = Readonly<Record<ExtensionPoint, readonly PluginRef[]>>;

/** Everything outside the framework that plugins reach through the handle. */
export interface FrameworkDeps {
  names: WellKnownNames;
  clock: Clock;
  listers: Listers;
  binder: Binder;
  client: SchedulerClient;
  eventRecorder: EventRecorder;
  nominator: PodNominator;
  /** The snapshot of the cycle in progress. */
  snapshot: () => NodeInfoLister;
  /** Where plugins record (preemption); default records nothing. */
  metrics?: SchedulerRecorder;
}

export interface FrameworkConfig {
  profileName: string;
  plugins: ProfilePlugins;
  /** Args by plugin name (pluginConfig); plugins default what is absent. */
  pluginArgs: ReadonlyMap<string, unknown>;
  registry: Registry;
  deps: FrameworkDeps;
}

interface WeightedScorePlugin {
  plugin: ScorePlugin;
  weight: number;
  /** Scores every node into scores[i].score through this plugin's own call site (see compileScoreLoop). */
  scoreAll: ScoreLoop;
}

export class Framework implements FrameworkHandle {
  readonly profileName: string;
  readonly names: WellKnownNames;
  readonly clock: Clock;
  readonly listers: Listers;
  readonly binder: Binder;
  readonly client: SchedulerClient;
  readonly eventRecorder: EventRecorder;
  readonly nominator: PodNominator;
  readonly metrics: SchedulerRecorder;
  /** Every plugin of the profile, by name (one instance shared by its extension points). */
  readonly pluginsByName = new Map<string, Plugin>();
  readonly queueSort: QueueSortPlugin | undefined;
  readonly preFilterPlugins: PreFilterPlugin[];
  readonly filterPlugins: FilterPlugin[];
  readonly postFilterPlugins: PostFilterPlugin[];
  readonly preScorePlugins: PreScorePlugin[];
  readonly scorePlugins: WeightedScorePlugin[];
  /**
   * The per-plugin score list of runScorePlugins, kept across cycles: its node-count objects
   * were a third of what a cycle allocated. Plugins write and normalize it in place and keep
   * nothing of it (as upstream's NodeScoreList, which the framework also reuses per plugin).
   */
  private scoreScratch: NodeScore[] = [];
  readonly reservePlugins: ReservePlugin[];
  readonly permitPlugins: PermitPlugin[];
  readonly preBindPlugins: PreBindPlugin[];
  readonly bindPlugins: BindPlugin[];
  readonly postBindPlugins: PostBindPlugin[];
  private readonly snapshot: () => NodeInfoLister;
  private readonly filterRunner: FilterRunner;
  private readonly waitingPods = new Map<string, WaitingPodImpl>();

  /** Builds every configured plugin; throws a configuration error for unknown or mismatched plugins. */
  constructor(cfg: FrameworkConfig) {
    this.profileName = cfg.profileName;
    const d = cfg.deps;
    this.names = d.names;
    this.clock = d.clock;
    this.listers = d.listers;
    this.binder = d.binder;
    this.client = d.client;
    this.eventRecorder = d.eventRecorder;
    this.nominator = d.nominator;
    this.snapshot = d.snapshot;
    this.metrics = d.metrics ?? NOOP_RECORDER;
    const at = <T extends Plugin>(ep: ExtensionPoint): T[] => cfg.plugins[ep].map((ref) => this.instantiate(cfg, ref.name, ep) as T);
    const queueSort = at<QueueSortPlugin>('queueSort');
    if (queueSort.length > 1) throw new Error(`profile ${cfg.profileName}: only one queueSort plugin can be enabled`);
    this.queueSort = queueSort[0];
    this.preFilterPlugins = at('preFilter');
    this.filterPlugins = at('filter');
    this.filterRunner = compileFilterRunner(this.filterPlugins, filterFailure);
    this.postFilterPlugins = at('postFilter');
    this.preScorePlugins = at('preScore');
    this.scorePlugins = cfg.plugins.score.map((ref) => {
      const plugin = this.instantiate(cfg, ref.name, 'score') as ScorePlugin;
      return { plugin, weight: ref.weight || 1, scoreAll: compileScoreLoop(plugin) };
    });
    this.reservePlugins = at('reserve');
    this.permitPlugins = at('permit');
    this.preBindPlugins = at('preBind');
    this.bindPlugins = at('bind');
    this.postBindPlugins = at('postBind');
    if (this.bindPlugins.length === 0) throw new Error(`profile ${cfg.profileName}: at least one bind plugin is needed`);
  }

  private instantiate(cfg: FrameworkConfig, name: string, ep: ExtensionPoint): Plugin {
    let p = this.pluginsByName.get(name);
    if (p === undefined) {
      const factory = cfg.registry.get(name);
      if (factory === undefined) throw new Error(`profile ${cfg.profileName}: plugin ${JSON.stringify(name)} does not exist`);
      p = factory(cfg.pluginArgs.get(name), this);
      this.pluginsByName.set(name, p);
    }
    if (typeof (p as unknown as Record<string, unknown>)[EXTENSION_METHOD[ep]] !== 'function') {
      throw new Error(`profile ${cfg.profileName}: plugin ${JSON.stringify(name)} does not extend ${ep} plugin`);
    }
    return p;
  }

  // ---- FrameworkHandle ----

  snapshotSharedLister(): NodeInfoLister {
    return this.snapshot();
  }

  getWaitingPod(uid: string): WaitingPod | undefined {
    return this.waitingPods.get(uid);
  }

  iterateOverWaitingPods(fn: (wp: WaitingPod) => void): void {
    for (const wp of this.waitingPods.values()) fn(wp);
  }

  rejectWaitingPod(uid: string): boolean {
    const wp = this.waitingPods.get(uid);
    if (wp === undefined) return false;
    wp.reject('', 'removed');
    return true;
  }

  // ---- extension points ----

  /** The active queue's order; upstream's PrioritySort when the profile has none. */
  queueSortLess(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    if (this.queueSort !== undefined) return this.queueSort.less(a, b);
    return a.podInfo.priority > b.podInfo.priority || (a.podInfo.priority === b.podInfo.priority && a.timestamp < b.timestamp);
  }

  runPreFilterPlugins(state: CycleState, pod: Pod): Status {
    for (const pl of this.preFilterPlugins) {
      const s = guard(pl, () => pl.preFilter(state, pod));
      if (s.code === Code.Success) continue;
      if (s.code === Code.Skip) {
        state.skipFilterPlugins.add(pl.name);
        continue;
      }
      if (s.isUnschedulable()) return s.withFailedPlugin(pl.name);
      return wrapError(`running PreFilter plugin ${JSON.stringify(pl.name)}`, s, pl.name);
    }
    return SUCCESS;
  }

  runPreFilterExtensionAddPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status {
    for (const pl of this.preFilterPlugins) {
      if (state.skipFilterPlugins.has(pl.name)) continue;
      const ext = pl.preFilterExtensions?.();
      if (ext === undefined) continue;
      const s = guard(pl, () => ext.addPod(state, podToSchedule, podInfoToAdd, nodeInfo));
      if (!s.isSuccess()) return wrapError(`running AddPod on PreFilter plugin ${JSON.stringify(pl.name)}`, s, pl.name);
    }
    return SUCCESS;
  }

  runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): Status {
    for (const pl of this.preFilterPlugins) {
      if (state.skipFilterPlugins.has(pl.name)) continue;
      const ext = pl.preFilterExtensions?.();
      if (ext === undefined) continue;
      const s = guard(pl, () => ext.removePod(state, podToSchedule, podInfoToRemove, nodeInfo));
      if (!s.isSuccess()) return wrapError(`running RemovePod on PreFilter plugin ${JSON.stringify(pl.name)}`, s, pl.name);
    }
    return SUCCESS;
  }

  /** Filters in order, stopping at the first plugin that rejects the node. */
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    const skip = state.skipFilterPlugins;
    if (skip.size === 0) return this.filterRunner(state, pod, nodeInfo, undefined);
    // Per-plugin flags derived once per change of the set, not a name lookup per plugin and node.
    if (state.filterSkipVersion !== skip.version || state.filterSkip === undefined) {
      const flags = new Uint8Array(this.filterPlugins.length);
      for (let i = 0; i < flags.length; i++) flags[i] = skip.has(this.filterPlugins[i].name) ? 1 : 0;
      state.filterSkip = flags;
      state.filterSkipVersion = skip.version;
    }
    return this.filterRunner(state, pod, nodeInfo, state.filterSkip);
  }

  /**
   * Upstream's RunFilterPluginsWithNominatedPods: first with equal-or-higher priority pods
   * nominated to the node counted as running there, then, if that passed and such pods exist,
   * again without them (affinity may need them absent). Both must pass.
   */
  runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    if (this.nominator.isEmpty?.() === true) return this.runFilterPlugins(state, pod, nodeInfo);
    const nominated = this.nominator.nominatedPodsForNode(nodeInfo.name);
    if (nominated.length === 0) return this.runFilterPlugins(state, pod, nodeInfo);
    const priority = podPriority(pod);
    const uid = podUID(pod);
    let stateOut: CycleState | undefined;
    let nodeOut: NodeInfo | undefined;
    for (const pi of nominated) {
      if (pi.priority < priority || pi.uid === uid) continue;
      stateOut ??= state.clone();
      nodeOut ??= nodeInfo.clone();
      nodeOut.addPod(pi);
      const s = this.runPreFilterExtensionAddPod(stateOut, pod, pi, nodeOut);
      if (!s.isSuccess()) return s;
    }
    if (stateOut === undefined || nodeOut === undefined) return this.runFilterPlugins(state, pod, nodeInfo);
    const first = this.runFilterPlugins(stateOut, pod, nodeOut);
    if (!first.isSuccess()) return first;
    return this.runFilterPlugins(state, pod, nodeInfo);
  }

  /** PostFilter plugins in order until one succeeds or errors. */
  async runPostFilterPlugins(state: CycleState, pod: Pod, statuses: NodeToStatusMap): Promise<PostFilterResult> {
    const reasons: string[] = [];
    for (const pl of this.postFilterPlugins) {
      let r: PostFilterResult;
      try {
        r = await pl.postFilter(state, pod, statuses);
      } catch (e) {
        return { status: errorStatus(e).withFailedPlugin(pl.name) };
      }
      if (r.status.isSuccess()) return r;
      if (!r.status.isUnschedulable()) return { status: r.status.withFailedPlugin(pl.name) };
      reasons.push(...r.status.reasons);
    }
    return { status: unschedulable(...reasons) };
  }

  runPreScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status {
    for (const pl of this.preScorePlugins) {
      const s = guard(pl, () => pl.preScore(state, pod, nodes));
      if (s.code === Code.Success) continue;
      if (s.code === Code.Skip) {
        state.skipScorePlugins.add(pl.name);
        continue;
      }
      return wrapError(`running PreScore plugin ${JSON.stringify(pl.name)}`, s, pl.name);
    }
    return SUCCESS;
  }

  /**
   * Scores every node with every score plugin, normalizes, checks the 0–100 range and sums
   * score × weight per node. Returns the totals in node order, or an Error status.
   */
  runScorePlugins(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): NodeScore[] | Status {
    const n = nodes.length;
    const totals: NodeScore[] = new Array(n);
    for (let i = 0; i < n; i++) totals[i] = { name: nodes[i].name, score: 0 };
    // One scratch list reused by every plugin and cycle: allocation per node and plugin dominated this loop.
    let scores: NodeScore[] | undefined;
    for (const { plugin: pl, weight, scoreAll } of this.scorePlugins) {
      if (state.skipScorePlugins.has(pl.name)) continue;
      if (scores === undefined) {
        scores = this.scoreScratch;
        // Exactly n entries: normalizing plugins read the whole list.
        for (let i = scores.length; i < n; i++) scores.push({ name: '', score: 0 });
        if (scores.length > n) scores.length = n;
      }
      for (let i = 0; i < n; i++) scores[i].name = nodes[i].name;
      try {
        scoreAll(state, pod, nodes, scores);
      } catch (e) {
        return wrapError(`running Score plugin ${JSON.stringify(pl.name)}`, errorStatus(e), pl.name);
      }
      if (pl.normalizeScore !== undefined) {
        const list = scores;
        const s = guard(pl, () => pl.normalizeScore!(state, pod, list));
        if (!s.isSuccess()) return wrapError(`running Normalize on Score plugin ${JSON.stringify(pl.name)}`, s, pl.name);
      }
      for (let i = 0; i < n; i++) {
        const v = scores[i].score;
        if (!(v >= MIN_NODE_SCORE && v <= MAX_NODE_SCORE)) {
          return errorStatus(
            `plugin ${JSON.stringify(pl.name)} returns an invalid score ${v}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`,
          ).withFailedPlugin(pl.name);
        }
        totals[i].score += v * weight;
      }
    }
    return totals;
  }

  runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): Status {
    for (const pl of this.reservePlugins) {
      const s = guard(pl, () => pl.reserve(state, pod, nodeName));
      if (!s.isSuccess()) return wrapError(`running Reserve plugin ${JSON.stringify(pl.name)}`, s, pl.name);
    }
    return SUCCESS;
  }

  /** Unreserve in reverse order; failures are ignored as upstream (plugins must be idempotent). */
  runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): void {
    for (let i = this.reservePlugins.length - 1; i >= 0; i--) {
      try {
        this.reservePlugins[i].unreserve(state, pod, nodeName);
      } catch {
        // An unreserve bug must not stop the others from releasing their claims.
      }
    }
  }

  /** Permit: Unschedulable/Error stop at once; Wait from any plugin parks the pod (see waitOnPermit). */
  runPermitPlugins(state: CycleState, pod: Pod, nodeName: string): Status {
    let timeouts: Map<string, number> | undefined;
    for (const pl of this.permitPlugins) {
      let r: { status: Status; timeoutMs?: number };
      try {
        r = pl.permit(state, pod, nodeName);
      } catch (e) {
        return wrapError(`running Permit plugin ${JSON.stringify(pl.name)}`, errorStatus(e), pl.name);
      }
      const s = r.status;
      if (s.isSuccess()) continue;
      if (s.isUnschedulable()) return s.withFailedPlugin(pl.name);
      if (s.isWait()) {
        (timeouts ??= new Map()).set(pl.name, Math.min(r.timeoutMs ?? MAX_PERMIT_TIMEOUT_MS, MAX_PERMIT_TIMEOUT_MS));
        continue;
      }
      return wrapError(`running Permit plugin ${JSON.stringify(pl.name)}`, s, pl.name);
    }
    if (timeouts !== undefined) {
      this.waitingPods.set(podUID(pod), new WaitingPodImpl(pod, timeouts, this.clock));
      return new Status(Code.Wait, [`one or more plugins asked to wait and no plugin rejected pod ${JSON.stringify(pod.metadata.name)}`]);
    }
    return SUCCESS;
  }

  /** Resolves when a pod parked at Permit is allowed (Success) or rejected (Unschedulable). */
  async waitOnPermit(pod: Pod): Promise<Status> {
    const uid = podUID(pod);
    const wp = this.waitingPods.get(uid);
    if (wp === undefined) return SUCCESS;
    try {
      return await wp.done;
    } finally {
      this.waitingPods.delete(uid);
    }
  }

  async runPreBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status> {
    for (const pl of this.preBindPlugins) {
      const s = await guardAsync(pl, () => pl.preBind(state, pod, nodeName));
      if (!s.isSuccess()) return wrapError(`running PreBind plugin ${JSON.stringify(pl.name)}`, s, pl.name);
    }
    return SUCCESS;
  }

  /** The first bind plugin that does not Skip binds; Skip from all is returned as Skip. */
  async runBindPlugins(state: CycleState, pod: Pod, nodeName: string): Promise<Status> {
    let s: Status = SUCCESS;
    for (const pl of this.bindPlugins) {
      s = await guardAsync(pl, () => pl.bind(state, pod, nodeName));
      if (s.isSkip()) continue;
      if (!s.isSuccess()) return wrapError(`plugin ${JSON.stringify(pl.name)} failed to bind pod`, s, pl.name);
      return s;
    }
    return s;
  }

  runPostBindPlugins(state: CycleState, pod: Pod, nodeName: string): void {
    for (const pl of this.postBindPlugins) {
      try {
        pl.postBind(state, pod, nodeName);
      } catch {
        // PostBind is informational; a failing one must not undo a completed bind.
      }
    }
  }

  hasFilterPlugins(): boolean {
    return this.filterPlugins.length > 0;
  }

  hasScorePlugins(): boolean {
    return this.scorePlugins.length > 0;
  }

  /** A fresh CycleState for one cycle. */
  newCycleState(): CycleState {
    return new CycleState();
  }
}

/** A rejected node's status: Unschedulable ones name the plugin, anything else becomes an Error. */
function filterFailure(pl: FilterPlugin, s: Status): Status {
  if (s.isUnschedulable()) return s.withFailedPlugin(pl.name);
  return wrapError(`running ${JSON.stringify(pl.name)} filter plugin`, s, pl.name);
}

/** Upstream's maxTimeout for Permit waits: 15 minutes. */
export const MAX_PERMIT_TIMEOUT_MS = 15 * 60 * 1000;

function guard(pl: Plugin, run: () => Status): Status {
  try {
    return run();
  } catch (e) {
    return errorStatus(e).withFailedPlugin(pl.name);
  }
}

async function guardAsync(pl: Plugin, run: () => Status | Promise<Status>): Promise<Status> {
  try {
    return await run();
  } catch (e) {
    return errorStatus(e).withFailedPlugin(pl.name);
  }
}

function wrapError(context: string, s: Status, plugin: string): Status {
  const msg = `${context}: ${s.message()}`;
  return new Status(Code.Error, [msg], s.error ?? new Error(msg)).withFailedPlugin(plugin);
}

/** The extension points in configuration order (re-exported for config code). */
export const ALL_EXTENSION_POINTS = EXTENSION_POINTS;
