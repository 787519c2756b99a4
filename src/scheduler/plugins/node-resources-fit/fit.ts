/**
 * NodeResourcesFit (PreFilter, Filter, and Score when given a scoring strategy): the pod's
 * requests must fit in the node's allocatable minus what its pods request, plus one pod slot.
 * Every insufficient resource is a reason ("Insufficient cpu", "Too many pods"), as upstream.
 */
import type { CycleState, StateData } from '../../framework/cycle-state.js';
import { StateKey } from '../../framework/cycle-state.js';
import { ActionType } from '../../framework/events.js';
import {
  FIT_ALLOCATABLE_CPU,
  FIT_ALLOCATABLE_EPHEMERAL,
  FIT_ALLOCATABLE_MEMORY,
  FIT_ALLOWED_PODS,
  FIT_COLUMNS,
  FIT_PODS,
  FIT_REQUESTED_CPU,
  FIT_REQUESTED_EPHEMERAL,
  FIT_REQUESTED_MEMORY,
} from '../../framework/fit-rows.js';
import type { FilterPlugin, PreFilterPlugin, ScorePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { computePodRequests, isExtendedResourceName, type Resource } from '../../framework/resources.js';
import { errorStatus, type Status, SUCCESS, unschedulable } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';
import { parseResources, ResourceAllocationScorer } from './resource-allocation.js';
import { leastAllocatedScorer, mostAllocatedScorer, requestedToCapacityRatioScorer, type UtilizationShapePoint } from './strategies.js';

export const NAME = 'NodeResourcesFit';

export type ScoringStrategyType = 'LeastAllocated' | 'MostAllocated' | 'RequestedToCapacityRatio';

export interface NodeResourcesFitArgs {
  /** Extended resources the filter ignores. */
  ignoredResources?: string[];
  /** Extended resource groups (the part before `/`) the filter ignores. */
  ignoredResourceGroups?: string[];
  /** Scoring when NodeResourcesFit is enabled at Score (the v1beta2 shape); LeastAllocated by default. */
  scoringStrategy?: {
    type?: ScoringStrategyType;
    resources?: { name: string; weight?: number }[];
    requestedToCapacityRatio?: { shape?: UtilizationShapePoint[] };
  };
}

/** One resource the node lacks for the pod. */
export interface InsufficientResource {
  resourceName: string;
  reason: string;
  requested: number;
  used: number;
  capacity: number;
}

class PreFilterState implements StateData {
  constructor(readonly requests: Resource) {}
  clone(): StateData {
    return this;
  }
}

const preFilterStateKey = new StateKey<PreFilterState>(`PreFilter${NAME}`);

/**
 * Upstream's fitsRequest: the pod-count check always, the rest only for pods that request
 * something; ignored extended resources are skipped.
 */
export function fitsRequest(
  podRequest: Resource,
  nodeInfo: NodeInfo,
  ignoredResources: ReadonlySet<string>,
  ignoredGroups: ReadonlySet<string>,
): InsufficientResource[] {
  const out: InsufficientResource[] = [];
  const allowed = nodeInfo.allowedPodNumber;
  if (nodeInfo.pods.length + 1 > allowed) {
    out.push({ resourceName: 'pods', reason: 'Too many pods', requested: 1, used: nodeInfo.pods.length, capacity: allowed });
  }
  if (podRequest.isZero()) return out;
  const alloc = nodeInfo.allocatable;
  const used = nodeInfo.requested;
  if (alloc.milliCPU < podRequest.milliCPU + used.milliCPU) {
    out.push({ resourceName: 'cpu', reason: 'Insufficient cpu', requested: podRequest.milliCPU, used: used.milliCPU, capacity: alloc.milliCPU });
  }
  if (alloc.memory < podRequest.memory + used.memory) {
    out.push({ resourceName: 'memory', reason: 'Insufficient memory', requested: podRequest.memory, used: used.memory, capacity: alloc.memory });
  }
  if (alloc.ephemeralStorage < podRequest.ephemeralStorage + used.ephemeralStorage) {
    out.push({
      resourceName: 'ephemeral-storage',
      reason: 'Insufficient ephemeral-storage',
      requested: podRequest.ephemeralStorage,
      used: used.ephemeralStorage,
      capacity: alloc.ephemeralStorage,
    });
  }
  if (podRequest.scalar !== undefined) {
    for (const [name, q] of podRequest.scalar) {
      if (isExtendedResourceName(name) && (ignoredResources.has(name) || ignoredGroups.has(name.split('/')[0]))) continue;
      const u = used.getScalar(name);
      const cap = alloc.getScalar(name);
      if (cap < q + u) out.push({ resourceName: name, reason: `Insufficient ${name}`, requested: q, used: u, capacity: cap });
    }
  }
  return out;
}

export class NodeResourcesFit implements PreFilterPlugin, FilterPlugin, ScorePlugin {
  readonly name = NAME;
  private readonly ignoredResources: ReadonlySet<string>;
  private readonly ignoredGroups: ReadonlySet<string>;
  private readonly scorer: ResourceAllocationScorer;

  constructor(args: NodeResourcesFitArgs = {}) {
    this.ignoredResources = new Set(args.ignoredResources ?? []);
    this.ignoredGroups = new Set(args.ignoredResourceGroups ?? []);
    const strategy = args.scoringStrategy ?? {};
    const resources = parseResources(strategy.resources, false);
    const type = strategy.type ?? 'LeastAllocated';
    const scorer =
      type === 'LeastAllocated'
        ? leastAllocatedScorer(resources)
        : type === 'MostAllocated'
          ? mostAllocatedScorer(resources)
          : type === 'RequestedToCapacityRatio'
            ? requestedToCapacityRatioScorer(strategy.requestedToCapacityRatio?.shape ?? [], resources)
            : undefined;
    if (scorer === undefined) throw new Error(`scoringStrategy.type: Unsupported value: ${JSON.stringify(type)}`);
    this.scorer = new ResourceAllocationScorer(NAME, resources, scorer);
  }

  preFilter(state: CycleState, pod: Pod): Status {
    state.write(preFilterStateKey, new PreFilterState(computePodRequests(pod).requests));
    return SUCCESS;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status {
    const s = state.read(preFilterStateKey);
    if (s === undefined) return errorStatus(`error reading "${preFilterStateKey.name}" from cycleState: not found`);
    // Fast path for the common case (everything fits, no scalar resources): no allocation, and
    // for a snapshot's node the numbers come from its row (fit-rows.ts), not four objects.
    const r = s.requests;
    if (r.scalar === undefined) {
      const rows = nodeInfo.fitRows;
      if (rows !== undefined) {
        const t = rows.table;
        const o = nodeInfo.fitRow * FIT_COLUMNS;
        if (
          t[o + FIT_PODS] < t[o + FIT_ALLOWED_PODS] &&
          t[o + FIT_ALLOCATABLE_CPU] >= r.milliCPU + t[o + FIT_REQUESTED_CPU] &&
          t[o + FIT_ALLOCATABLE_MEMORY] >= r.memory + t[o + FIT_REQUESTED_MEMORY] &&
          t[o + FIT_ALLOCATABLE_EPHEMERAL] >= r.ephemeralStorage + t[o + FIT_REQUESTED_EPHEMERAL]
        ) {
          return SUCCESS;
        }
      } else {
        const alloc = nodeInfo.allocatable;
        const used = nodeInfo.requested;
        if (
          nodeInfo.pods.length < alloc.allowedPodNumber &&
          alloc.milliCPU >= r.milliCPU + used.milliCPU &&
          alloc.memory >= r.memory + used.memory &&
          alloc.ephemeralStorage >= r.ephemeralStorage + used.ephemeralStorage
        ) {
          return SUCCESS;
        }
      }
    }
    const insufficient = fitsRequest(s.requests, nodeInfo, this.ignoredResources, this.ignoredGroups);
    if (insufficient.length === 0) return SUCCESS;
    return unschedulable(...insufficient.map((r) => r.reason));
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    return this.scorer.score(state, pod, nodeInfo);
  }

  eventsToRegister() {
    return [
      { resource: 'Pod' as const, actionType: ActionType.Delete, label: 'PodDelete' },
      { resource: 'Node' as const, actionType: ActionType.Add | ActionType.UpdateNodeAllocatable, label: 'Node' },
    ];
  }
}

export const factory: PluginFactory = (args) => new NodeResourcesFit((args ?? {}) as NodeResourcesFitArgs);
