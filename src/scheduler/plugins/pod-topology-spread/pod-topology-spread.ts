/**
 * PodTopologySpread (PreFilter with AddPod/RemovePod, Filter, PreScore, Score, NormalizeScore):
 * the pod's topologySpreadConstraints — DoNotSchedule filters, ScheduleAnyway scores — or, when
 * it has none, the profile's default constraints with a selector from its Services and owner,
 * as upstream Kubernetes 1.21. Args (v1beta1): defaultConstraints, defaultingType System|List.
 */
import { fieldErrorBody } from '../../../machinery/status.js';
import { validateLabelName } from '../../../machinery/validation.js';
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType, type ClusterEvent } from '../../framework/events.js';
import type { FrameworkHandle } from '../../framework/handle.js';
import type { FilterPlugin, NodeScore, PreFilterExtensions, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PodInfo } from '../../framework/pod-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { errorStatus, SKIP, type Status, SUCCESS } from '../../framework/status.js';
import type { Pod, TopologySpreadConstraint } from '../../framework/types.js';
import { SpreadAggregates } from './aggregate.js';
import { type Constraint, type Counters, defaultSelector, filterConstraints, MatchCounter, UNMEMOIZED } from './common.js';
import { computePreFilterState, filterNode, NAME, preFilterStateKey } from './filtering.js';
import { computePreScoreState, normalize, preScoreStateKey, scoreNode } from './scoring.js';

export { NAME } from './filtering.js';

export interface PodTopologySpreadArgs {
  /** Constraints for pods that define none; must not carry a labelSelector. */
  defaultConstraints?: TopologySpreadConstraint[];
  /** `System` (built-in defaults) or `List` (defaultConstraints); defaulted from whether defaultConstraints is set. */
  defaultingType?: 'System' | 'List' | string;
}

/** v1beta1 defaulting and upstream's ValidatePodTopologySpreadArgs; returns the effective default constraints. */
export function resolveDefaultConstraints(raw: unknown, handle: Pick<FrameworkHandle, 'names'>): TopologySpreadConstraint[] {
  const args = (raw ?? {}) as PodTopologySpreadArgs;
  const list = args.defaultConstraints ?? [];
  const type = args.defaultingType || (list.length > 0 ? 'List' : 'System');
  const errs: string[] = [];
  if (type !== 'System' && type !== 'List') errs.push(`defaultingType: Unsupported value: ${JSON.stringify(type)}: supported values: "List", "System"`);
  else if (type === 'System' && list.length > 0) errs.push(`defaultingType: Invalid value: "System": when .defaultConstraints are not empty`);
  list.forEach((c, i) => {
    const p = `defaultConstraints[${i}]`;
    if (!(c.maxSkew > 0)) errs.push(`${p}.maxSkew: Invalid value: ${c.maxSkew}: must be greater than zero`);
    if (!c.topologyKey) errs.push(`${p}.topologyKey: Required value: can not be empty`);
    else for (const e of validateLabelName(c.topologyKey, `${p}.topologyKey`)) errs.push(`${e.field}: ${fieldErrorBody(e)}`);
    if (!c.whenUnsatisfiable) errs.push(`${p}.whenUnsatisfiable: Required value: can not be empty`);
    else if (c.whenUnsatisfiable !== 'DoNotSchedule' && c.whenUnsatisfiable !== 'ScheduleAnyway') {
      errs.push(`${p}.whenUnsatisfiable: Unsupported value: ${JSON.stringify(c.whenUnsatisfiable)}: supported values: "DoNotSchedule", "ScheduleAnyway"`);
    }
    if (c.labelSelector != null) errs.push(`${p}.labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod`);
    if (list.slice(0, i).some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable)) {
      errs.push(`defaultConstraints[${i}]: Duplicate value: "{${c.topologyKey}, ${c.whenUnsatisfiable}}"`);
    }
  });
  if (errs.length > 0) throw new Error(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  if (type === 'List') return list;
  // 1.21's systemDefaultConstraints.
  return [
    { topologyKey: handle.names.hostnameLabel, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
    { topologyKey: handle.names.zoneLabel, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
  ];
}

export class PodTopologySpread implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;
  private readonly defaults: TopologySpreadConstraint[];
  private readonly extensions: PreFilterExtensions;
  /** Matching pods per node, reused across cycles while a node is unchanged. */
  private readonly counters: Counters;
  /** PreFilter's and PreScore's passes over the nodes, kept across cycles. */
  private readonly aggregates: SpreadAggregates | undefined;

  /** `memo` false: every cycle computed afresh (the reference the memo tests compare with). */
  constructor(
    args: PodTopologySpreadArgs | undefined,
    private readonly handle: Pick<FrameworkHandle, 'snapshotSharedLister' | 'listers' | 'names'>,
    memo = true,
  ) {
    this.counters = memo ? new MatchCounter() : UNMEMOIZED;
    this.aggregates = memo ? new SpreadAggregates() : undefined;
    this.defaults = resolveDefaultConstraints(args, handle);
    this.extensions = {
      addPod: (state, pod, pi, ni) => this.updateWithPod(state, pod, pi, ni, 1),
      removePod: (state, pod, pi, ni) => this.updateWithPod(state, pod, pi, ni, -1),
    };
  }

  /** The pod's own constraints for the action, else the defaults with the pod's default selector. */
  private constraints(pod: Pod, action: string): Constraint[] {
    const own = pod.spec.topologySpreadConstraints;
    if (own !== undefined && own.length > 0) return filterConstraints(own, action);
    const cs = filterConstraints(this.defaults, action);
    if (cs.length === 0) return cs;
    const d = defaultSelector(pod, this.handle.listers);
    if (d === undefined) return [];
    return cs.map((c) => ({ ...c, selector: d.selector, selectorKey: d.key }));
  }

  preFilter(state: CycleState, pod: Pod): Status {
    let cs: Constraint[];
    try {
      cs = this.constraints(pod, 'DoNotSchedule');
    } catch (e) {
      return errorStatus(`obtaining pod's hard topology spread constraints: ${e instanceof Error ? e.message : e}`);
    }
    // No hard constraints: upstream's empty state passes every node and AddPod/RemovePod are no-ops.
    if (cs.length === 0) return SKIP;
    state.write(preFilterStateKey, computePreFilterState(pod, cs, this.handle.snapshotSharedLister(), this.counters, this.aggregates));
    return SUCCESS;
  }

  preFilterExtensions(): PreFilterExtensions {
    return this.extensions;
  }

  private updateWithPod(state: CycleState, pod: Pod, pi: PodInfo, ni: NodeInfo, delta: number): Status {
    const s = state.read(preFilterStateKey);
    if (s === undefined) return errorStatus(`error reading "${preFilterStateKey.name}" from cycleState: not found`);
    s.updateWithPod(pi.pod, pod, ni.node, delta);
    return SUCCESS;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    return filterNode(state.read(preFilterStateKey), pod, nodeInfo);
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status {
    const lister = this.handle.snapshotSharedLister();
    if (nodes.length === 0 || lister.numNodes() === 0) return SKIP;
    let cs: Constraint[];
    try {
      cs = this.constraints(pod, 'ScheduleAnyway');
    } catch (e) {
      return errorStatus(`obtaining pod's soft topology spread constraints: ${e instanceof Error ? e.message : e}`);
    }
    // Without soft constraints upstream gives every node the same score; skipping keeps the order.
    if (cs.length === 0) return SKIP;
    state.write(preScoreStateKey, computePreScoreState(pod, cs, nodes, lister, this.handle.names.hostnameLabel, this.counters, this.aggregates));
    return SUCCESS;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    return scoreNode(state.read(preScoreStateKey), pod, nodeInfo);
  }

  normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): Status {
    return normalize(state.read(preScoreStateKey), scores);
  }

  eventsToRegister(): ClusterEvent[] {
    return [
      // Assigned pods added, relabelled or deleted change the domain counts.
      { resource: 'Pod', actionType: ActionType.All, label: 'Pod' },
      { resource: 'Node', actionType: ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel, label: 'NodeTopologyChange' },
    ];
  }
}

export const factory: PluginFactory = (args, handle) => new PodTopologySpread(args as PodTopologySpreadArgs | undefined, handle);
