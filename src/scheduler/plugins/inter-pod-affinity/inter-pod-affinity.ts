/**
 * InterPodAffinity (PreFilter with AddPod/RemovePod, Filter, PreScore, Score, NormalizeScore):
 * required and preferred pod affinity and anti-affinity, including the existing pods' terms
 * (symmetry), as upstream Kubernetes 1.21. Args (v1beta1): hardPodAffinityWeight, default 1.
 */
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType, type ClusterEvent } from '../../framework/events.js';
import type { FrameworkHandle } from '../../framework/handle.js';
import type { FilterPlugin, NodeScore, PreFilterExtensions, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PodInfo } from '../../framework/pod-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { errorStatus, type Status, SUCCESS } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { computePreFilterState, filterNode, NAME, newPreFilterMemo, PreFilterState, preFilterStateKey } from './filtering.js';
import { newPreScoreMemo, normalize, preScore, preScoreStateKey, scoreNode } from './scoring.js';

export { NAME } from './filtering.js';

export interface InterPodAffinityArgs {
  /** Score weight of an existing pod's required affinity term the incoming pod matches; 0–100. */
  hardPodAffinityWeight?: number;
}

/** v1beta1 defaults and upstream's ValidateInterPodAffinityArgs; throws on invalid args. */
export function resolveArgs(raw: unknown): Required<InterPodAffinityArgs> {
  const args = (raw ?? {}) as InterPodAffinityArgs;
  const w = args.hardPodAffinityWeight ?? 1;
  if (!Number.isInteger(w) || w < 0 || w > 100) throw new Error(`hardPodAffinityWeight: Invalid value: ${w}: not in valid range [0-100]`);
  return { hardPodAffinityWeight: w };
}

export class InterPodAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;
  private readonly hardPodAffinityWeight: number;
  private readonly extensions: PreFilterExtensions;
  /** Per-node results reused across cycles while a node is unchanged. */
  private readonly preFilterMemo = newPreFilterMemo();
  private readonly preScoreMemo = newPreScoreMemo();

  constructor(
    args: InterPodAffinityArgs,
    private readonly handle: Pick<FrameworkHandle, 'snapshotSharedLister'>,
  ) {
    this.hardPodAffinityWeight = resolveArgs(args).hardPodAffinityWeight;
    this.extensions = {
      addPod: (state, _pod, pi, ni) => this.updateWithPod(state, pi, ni, 1),
      removePod: (state, _pod, pi, ni) => this.updateWithPod(state, pi, ni, -1),
    };
  }

  preFilter(state: CycleState, pod: Pod): Status {
    const s = computePreFilterState(pod, this.handle.snapshotSharedLister(), this.preFilterMemo);
    if (!(s instanceof PreFilterState)) return s;
    state.write(preFilterStateKey, s);
    return SUCCESS;
  }

  preFilterExtensions(): PreFilterExtensions {
    return this.extensions;
  }

  private updateWithPod(state: CycleState, pi: PodInfo, ni: NodeInfo, delta: number): Status {
    const s = state.read(preFilterStateKey);
    if (s === undefined) return errorStatus(`error reading "${preFilterStateKey.name}" from cycleState: not found`);
    s.updateWithPod(pi, ni.node, delta);
    return SUCCESS;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status {
    return filterNode(state.read(preFilterStateKey), nodeInfo);
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status {
    return preScore(pod, nodes, this.handle.snapshotSharedLister(), this.hardPodAffinityWeight, (s) => state.write(preScoreStateKey, s), this.preScoreMemo);
  }

  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number {
    return scoreNode(state.read(preScoreStateKey), nodeInfo);
  }

  normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): Status {
    return normalize(state.read(preScoreStateKey), scores);
  }

  eventsToRegister(): ClusterEvent[] {
    return [
      // Any change of an assigned pod (add, label update, delete) can satisfy (anti-)affinity.
      { resource: 'Pod', actionType: ActionType.All, label: 'Pod' },
      { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel, label: 'NodeAddOrLabelUpdate' },
    ];
  }
}

export const factory: PluginFactory = (args, handle) => new InterPodAffinity((args ?? {}) as InterPodAffinityArgs, handle);
