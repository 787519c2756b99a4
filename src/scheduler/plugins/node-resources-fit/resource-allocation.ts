/**
 * Shared scoring arithmetic of the NodeResources* score plugins (upstream's
 * resourceAllocationScorer): per resource, allocatable and requested-after-placing-the-pod,
 * where cpu/memory use the non-zero defaults so empty pods still count. The pod's per-resource
 * requests are computed once per cycle and kept in CycleState.
 */
import type { CycleState, StateData } from '../../framework/cycle-state.js';
import { StateKey } from '../../framework/cycle-state.js';
import { FIT_ALLOCATABLE_CPU, FIT_ALLOCATABLE_MEMORY, FIT_COLUMNS, FIT_NONZERO_CPU, FIT_NONZERO_MEMORY } from '../../framework/fit-rows.js';
import type { NodeInfo } from '../../framework/node-info.js';
import { quantityMilliValue, quantityValue } from '../../../machinery/quantity.js';
import {
  DEFAULT_MEMORY_REQUEST,
  DEFAULT_MILLI_CPU_REQUEST,
  isScalarResourceName,
  RESOURCE_CPU,
  RESOURCE_EPHEMERAL_STORAGE,
  RESOURCE_MEMORY,
} from '../../framework/resources.js';
import type { Pod, ResourceList } from '../../framework/types.js';

/** A resource and its weight in a score. */
export interface ResourceSpec {
  name: string;
  weight: number;
}

/** Upstream's defaultRequestedRatioResources: cpu and memory, weight 1 each. */
export const DEFAULT_RESOURCES: readonly ResourceSpec[] = [
  { name: RESOURCE_CPU, weight: 1 },
  { name: RESOURCE_MEMORY, weight: 1 },
];

/** Combines per-resource requested/allocatable into a node score. */
export type ResourceScorer = (requested: readonly number[], allocatable: readonly number[]) => number;

/** Upstream's GetNonzeroRequestForResource for one container. */
function nonZeroRequest(name: string, list: ResourceList | undefined): number {
  const q = list?.[name];
  switch (name) {
    case RESOURCE_CPU:
      return q === undefined ? DEFAULT_MILLI_CPU_REQUEST : quantityMilliValue(q);
    case RESOURCE_MEMORY:
      return q === undefined ? DEFAULT_MEMORY_REQUEST : quantityValue(q);
    case RESOURCE_EPHEMERAL_STORAGE:
      return q === undefined ? 0 : quantityValue(q);
    default:
      return q !== undefined && isScalarResourceName(name) ? quantityValue(q) : 0;
  }
}

/** Upstream's calculatePodResourceRequest: containers summed, init containers maxed, overhead added. */
export function podRequestForScoring(pod: Pod, name: string): number {
  let r = 0;
  for (const c of pod.spec.containers ?? []) r += nonZeroRequest(name, c.resources?.requests);
  for (const c of pod.spec.initContainers ?? []) r = Math.max(r, nonZeroRequest(name, c.resources?.requests));
  const o = pod.spec.overhead?.[name];
  if (o !== undefined) r += name === RESOURCE_CPU ? quantityMilliValue(o) : quantityValue(o);
  return r;
}

class PodRequests implements StateData {
  /** The pod's request per scored resource, in the scorer's order. */
  constructor(readonly values: readonly number[]) {}
  clone(): StateData {
    return this;
  }
}

/** How a scored resource is read from a node. */
const CPU = 0;
const MEMORY = 1;
const EPHEMERAL_OR_SCALAR = 2;
const UNSCORED = 3;

function kindOf(name: string): number {
  if (name === RESOURCE_CPU) return CPU;
  if (name === RESOURCE_MEMORY) return MEMORY;
  return name === RESOURCE_EPHEMERAL_STORAGE || isScalarResourceName(name) ? EPHEMERAL_OR_SCALAR : UNSCORED;
}

export class ResourceAllocationScorer {
  private readonly key: StateKey<PodRequests>;
  private readonly names: string[];
  private readonly kinds: number[];
  /** Scratch lists of score(), which runs per node: the scorer reads them and keeps neither. */
  private readonly requested: number[];
  private readonly allocatable: number[];

  constructor(
    pluginName: string,
    private readonly resources: readonly ResourceSpec[],
    private readonly scorer: ResourceScorer,
  ) {
    this.key = new StateKey(`${pluginName}/podRequests`);
    this.names = resources.map((r) => r.name);
    this.kinds = this.names.map(kindOf);
    this.requested = new Array(this.names.length).fill(0);
    this.allocatable = new Array(this.names.length).fill(0);
  }

  /** The node's score for the pod under this scorer. */
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    let reqs = state.read(this.key);
    if (reqs === undefined) {
      reqs = new PodRequests(this.names.map((n) => podRequestForScoring(pod, n)));
      state.write(this.key, reqs);
    }
    const { requested, allocatable, kinds } = this;
    const podReqs = reqs.values;
    // A snapshot's node has its cpu and memory numbers in its row (fit-rows.ts).
    const rows = nodeInfo.fitRows;
    const t = rows?.table;
    const o = nodeInfo.fitRow * FIT_COLUMNS;
    for (let i = 0; i < kinds.length; i++) {
      switch (kinds[i]) {
        case CPU:
          if (t !== undefined) {
            allocatable[i] = t[o + FIT_ALLOCATABLE_CPU];
            requested[i] = t[o + FIT_NONZERO_CPU] + podReqs[i];
          } else {
            allocatable[i] = nodeInfo.allocatable.milliCPU;
            requested[i] = nodeInfo.nonZeroRequested.milliCPU + podReqs[i];
          }
          break;
        case MEMORY:
          if (t !== undefined) {
            allocatable[i] = t[o + FIT_ALLOCATABLE_MEMORY];
            requested[i] = t[o + FIT_NONZERO_MEMORY] + podReqs[i];
          } else {
            allocatable[i] = nodeInfo.allocatable.memory;
            requested[i] = nodeInfo.nonZeroRequested.memory + podReqs[i];
          }
          break;
        case EPHEMERAL_OR_SCALAR:
          allocatable[i] = nodeInfo.allocatable.get(this.names[i]);
          requested[i] = nodeInfo.requested.get(this.names[i]) + podReqs[i];
          break;
        default:
          requested[i] = allocatable[i] = 0;
      }
    }
    return this.scorer(requested, allocatable);
  }

  get weights(): readonly number[] {
    return this.resources.map((r) => r.weight);
  }
}

/** Parses `[{name, weight}]` args; weight 0/absent becomes 1 when defaultZeroWeight, else must be 1–100. */
export function parseResources(raw: unknown, defaultZeroWeight: boolean): ResourceSpec[] {
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) return DEFAULT_RESOURCES.map((r) => ({ ...r }));
  if (!Array.isArray(raw)) throw new Error('resources: must be a list');
  return raw.map((r, i) => {
    const name = String((r as ResourceSpec).name ?? '');
    let weight = Number((r as ResourceSpec).weight ?? 0);
    if (weight === 0 && defaultZeroWeight) weight = 1;
    if (!(weight >= 1 && weight <= 100))
      throw new Error(`resources[${i}].weight: Invalid value: ${weight}: resource weight of ${name} not in valid range [1, 100]`);
    return { name, weight };
  });
}
