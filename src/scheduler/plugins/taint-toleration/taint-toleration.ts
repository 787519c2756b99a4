/**
 * TaintToleration (Filter, PreScore, Score): a node's NoSchedule/NoExecute taints must all be
 * tolerated; among feasible nodes, fewer untolerated PreferNoSchedule taints score higher
 * (counts normalized and reversed, so the node with the most scores 0).
 */
import type { CycleState, StateData } from '../../framework/cycle-state.js';
import { StateKey } from '../../framework/cycle-state.js';
import { ActionType } from '../../framework/events.js';
import type { FilterPlugin, NodeScore, PreScorePlugin, ScorePlugin } from '../../framework/interfaces.js';
import { MAX_NODE_SCORE } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { errorStatus, type Status, SUCCESS, unresolvable } from '../../framework/status.js';
import { findUntoleratedTaint, tolerationsTolerateTaint } from '../../framework/taints.js';
import type { Pod, Taint, Toleration } from '../../framework/types.js';
import { defaultNormalizeScore } from './normalize.js';

export const NAME = 'TaintToleration';

/** The Filter reason as Kubernetes 1.21 words it (later releases say "untolerated taint"). */
export function errReasonUntolerated(taint: Taint): string {
  return `node(s) had taint {${taint.key}: ${taint.value ?? ''}}, that the pod didn't tolerate`;
}

const filterEffects = (t: Taint) => t.effect === 'NoSchedule' || t.effect === 'NoExecute';

class PreScoreState implements StateData {
  constructor(readonly tolerationsPreferNoSchedule: readonly Toleration[]) {}
  /** Immutable: derived from the pod alone. */
  clone(): StateData {
    return this;
  }
}

const preScoreStateKey = new StateKey<PreScoreState>(`PreScore${NAME}`);

/** Tolerations that can tolerate PreferNoSchedule taints: that effect, or any (empty) effect. */
export function tolerationsPreferNoSchedule(tolerations: readonly Toleration[] | undefined): Toleration[] {
  return (tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
}

/** Upstream's countIntolerableTaintsPreferNoSchedule. */
export function countIntolerableTaintsPreferNoSchedule(taints: readonly Taint[] | undefined, tolerations: readonly Toleration[]): number {
  let n = 0;
  for (const t of taints ?? []) if (t.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, t)) n++;
  return n;
}

export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    const node = nodeInfo.node;
    if (node === undefined) return errorStatus('invalid nodeInfo');
    const taint = findUntoleratedTaint(node.spec?.taints, pod.spec.tolerations, filterEffects);
    return taint === undefined ? SUCCESS : unresolvable(errReasonUntolerated(taint));
  }

  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status {
    if (nodes.length === 0) return SUCCESS;
    state.write(preScoreStateKey, new PreScoreState(tolerationsPreferNoSchedule(pod.spec.tolerations)));
    return SUCCESS;
  }

  /** The raw count of untolerated PreferNoSchedule taints; NormalizeScore turns it into 0–100. */
  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number {
    const node = nodeInfo.node;
    if (node === undefined) throw new Error(`getting node ${JSON.stringify(nodeInfo.name)} from Snapshot: node is nil`);
    const s = state.read(preScoreStateKey);
    if (s === undefined) throw new Error(`failed to read "${preScoreStateKey.name}" from cycleState: not found`);
    return countIntolerableTaintsPreferNoSchedule(node.spec?.taints, s.tolerationsPreferNoSchedule);
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status {
    return defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
  }

  eventsToRegister() {
    return [{ resource: 'Node' as const, actionType: ActionType.Add | ActionType.UpdateNodeTaint, label: 'Node' }];
  }
}

export const factory: PluginFactory = () => new TaintToleration();
