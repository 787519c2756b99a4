/**
 * The v1beta1 score plugins built on NodeResourcesFit's strategies: NodeResourcesLeastAllocated
 * (default, weight 1), NodeResourcesMostAllocated and RequestedToCapacityRatio (off by default).
 */
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType } from '../../framework/events.js';
import type { ScorePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import type { Pod } from '../../framework/types.js';
import { parseResources, type ResourceAllocationScorer as Scorer, ResourceAllocationScorer } from './resource-allocation.js';
import { leastAllocatedScorer, mostAllocatedScorer, requestedToCapacityRatioScorer, type UtilizationShapePoint } from './strategies.js';

export const LEAST_ALLOCATED = 'NodeResourcesLeastAllocated';
export const MOST_ALLOCATED = 'NodeResourcesMostAllocated';
export const REQUESTED_TO_CAPACITY_RATIO = 'RequestedToCapacityRatio';

/** NodeResourcesLeastAllocatedArgs / NodeResourcesMostAllocatedArgs. */
export interface ResourcesArgs {
  resources?: { name: string; weight?: number }[];
}

/** RequestedToCapacityRatioArgs (v1beta1): shape points with score 0–10; resource weight 0 means 1. */
export interface RequestedToCapacityRatioArgs extends ResourcesArgs {
  shape?: UtilizationShapePoint[];
}

class ResourceScorePlugin implements ScorePlugin {
  constructor(
    readonly name: string,
    private readonly scorer: Scorer,
  ) {}

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    return this.scorer.score(state, pod, nodeInfo);
  }

  eventsToRegister() {
    return [{ resource: 'Node' as const, actionType: ActionType.Add | ActionType.UpdateNodeAllocatable, label: 'Node' }];
  }
}

export const leastAllocatedFactory: PluginFactory = (args) => {
  const resources = parseResources((args as ResourcesArgs | undefined)?.resources, false);
  return new ResourceScorePlugin(LEAST_ALLOCATED, new ResourceAllocationScorer(LEAST_ALLOCATED, resources, leastAllocatedScorer(resources)));
};

export const mostAllocatedFactory: PluginFactory = (args) => {
  const resources = parseResources((args as ResourcesArgs | undefined)?.resources, false);
  return new ResourceScorePlugin(MOST_ALLOCATED, new ResourceAllocationScorer(MOST_ALLOCATED, resources, mostAllocatedScorer(resources)));
};

export const requestedToCapacityRatioFactory: PluginFactory = (args) => {
  const a = (args ?? {}) as RequestedToCapacityRatioArgs;
  const resources = parseResources(a.resources, true);
  const scorer = requestedToCapacityRatioScorer(a.shape ?? [], resources);
  return new ResourceScorePlugin(REQUESTED_TO_CAPACITY_RATIO, new ResourceAllocationScorer(REQUESTED_TO_CAPACITY_RATIO, resources, scorer));
};
