/**
 * NodeResourcesBalancedAllocation (Score): favours nodes whose cpu and memory would be used in
 * equal fractions once the pod is placed, as Kubernetes 1.21: 100 × (1 − |cpu% − memory%|), and
 * 0 when either fraction reaches capacity (such a node should never be preferred).
 */
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType } from '../../framework/events.js';
import { MAX_NODE_SCORE, type ScorePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import type { Pod } from '../../framework/types.js';
import { DEFAULT_RESOURCES, ResourceAllocationScorer } from '../node-resources-fit/resource-allocation.js';

export const NAME = 'NodeResourcesBalancedAllocation';

/** Upstream's fractionOfCapacity: a zero capacity counts as full. */
function fractionOfCapacity(requested: number, capacity: number): number {
  return capacity === 0 ? 1 : requested / capacity;
}

/** Upstream's balancedResourceScorer (1.21; the alpha BalanceAttachedNodeVolumes gate off). */
export function balancedResourceScore(requested: readonly number[], allocatable: readonly number[]): number {
  // Index 0 is cpu and 1 memory: the order of DEFAULT_RESOURCES.
  const cpuFraction = fractionOfCapacity(requested[0], allocatable[0]);
  const memoryFraction = fractionOfCapacity(requested[1], allocatable[1]);
  if (cpuFraction >= 1 || memoryFraction >= 1) return 0;
  const diff = Math.abs(cpuFraction - memoryFraction);
  return Math.trunc((1 - diff) * MAX_NODE_SCORE);
}

export class BalancedAllocation implements ScorePlugin {
  readonly name = NAME;
  private readonly scorer = new ResourceAllocationScorer(NAME, DEFAULT_RESOURCES, balancedResourceScore);

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    return this.scorer.score(state, pod, nodeInfo);
  }

  eventsToRegister() {
    return [{ resource: 'Node' as const, actionType: ActionType.Add | ActionType.UpdateNodeAllocatable, label: 'Node' }];
  }
}

/** v1beta1 has no args for this plugin. */
export const factory: PluginFactory = () => new BalancedAllocation();
