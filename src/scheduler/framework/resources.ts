/**
 * Resource amounts as numbers (milli-CPU, bytes, counts) and upstream's pod request
 * arithmetic: containers are summed, each init container raises the total to at least its own
 * request, overhead is added on top. Scoring uses "non-zero" requests where a container that
 * names no cpu/memory counts as 100m / 200Mi, so empty pods still spread.
 */
import type { Pod, ResourceList } from './types.js';
import { quantityMilliValue, quantityValue } from '../../machinery/quantity.js';
import { ORCH_NAMES } from './well-known.js';

export const RESOURCE_CPU = 'cpu';
export const RESOURCE_MEMORY = 'memory';
export const RESOURCE_EPHEMERAL_STORAGE = 'ephemeral-storage';
export const RESOURCE_PODS = 'pods';

/** Upstream's DefaultMilliCPURequest: 0.1 core. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
/** Upstream's DefaultMemoryRequest: 200 MiB. */
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

const NATIVE_PREFIXES = ['kubernetes.io/', ORCH_NAMES.nativeResourcePrefix];

function isPrefixedNative(name: string): boolean {
  return NATIVE_PREFIXES.some((p) => name.includes(p));
}

/** v1helper.IsExtendedResourceName: a domain-prefixed name outside the native domains, not `requests.*`. */
export function isExtendedResourceName(name: string): boolean {
  return name.includes('/') && !isPrefixedNative(name) && !name.startsWith('requests.');
}

/** v1helper.IsScalarResourceName: extended, hugepages-*, prefixed native or attachable-volumes-*. */
export function isScalarResourceName(name: string): boolean {
  return isExtendedResourceName(name) || name.startsWith('hugepages-') || isPrefixedNative(name) || name.startsWith('attachable-volumes-');
}

/** A resource vector; scalar resources (extended, hugepages, ...) live in a map made on first use. */
export class Resource {
  milliCPU = 0;
  memory = 0;
  ephemeralStorage = 0;
  allowedPodNumber = 0;
  scalar: Map<string, number> | undefined = undefined;

  /** Adds a served resource list; unknown non-scalar names (e.g. `storage`) are ignored as upstream. */
  addList(list: ResourceList | undefined): void {
    if (list === undefined) return;
    for (const name in list) {
      const q = list[name];
      switch (name) {
        case RESOURCE_CPU:
          this.milliCPU += quantityMilliValue(q);
          break;
        case RESOURCE_MEMORY:
          this.memory += quantityValue(q);
          break;
        case RESOURCE_EPHEMERAL_STORAGE:
          this.ephemeralStorage += quantityValue(q);
          break;
        case RESOURCE_PODS:
          this.allowedPodNumber += quantityValue(q);
          break;
        default:
          if (isScalarResourceName(name)) this.addScalar(name, quantityValue(q));
      }
    }
  }

  /** Raises each dimension to at least the list's value (upstream's SetMaxResource). */
  maxList(list: ResourceList | undefined): void {
    if (list === undefined) return;
    for (const name in list) {
      const q = list[name];
      switch (name) {
        case RESOURCE_CPU:
          this.milliCPU = Math.max(this.milliCPU, quantityMilliValue(q));
          break;
        case RESOURCE_MEMORY:
          this.memory = Math.max(this.memory, quantityValue(q));
          break;
        case RESOURCE_EPHEMERAL_STORAGE:
          this.ephemeralStorage = Math.max(this.ephemeralStorage, quantityValue(q));
          break;
        case RESOURCE_PODS:
          this.allowedPodNumber = Math.max(this.allowedPodNumber, quantityValue(q));
          break;
        default:
          if (isScalarResourceName(name)) {
            const v = quantityValue(q);
            if (v > this.getScalar(name)) this.setScalar(name, v);
          }
      }
    }
  }

  getScalar(name: string): number {
    return this.scalar?.get(name) ?? 0;
  }

  setScalar(name: string, v: number): void {
    (this.scalar ??= new Map()).set(name, v);
  }

  addScalar(name: string, v: number): void {
    this.setScalar(name, this.getScalar(name) + v);
  }

  /** Adds (sign 1) or subtracts (sign -1) another vector. */
  addResource(r: Resource, sign: 1 | -1): void {
    this.milliCPU += sign * r.milliCPU;
    this.memory += sign * r.memory;
    this.ephemeralStorage += sign * r.ephemeralStorage;
    this.allowedPodNumber += sign * r.allowedPodNumber;
    if (r.scalar !== undefined) for (const [k, v] of r.scalar) this.addScalar(k, sign * v);
  }

  /** The amount of a named resource; 0 for names the vector does not track. */
  get(name: string): number {
    switch (name) {
      case RESOURCE_CPU:
        return this.milliCPU;
      case RESOURCE_MEMORY:
        return this.memory;
      case RESOURCE_EPHEMERAL_STORAGE:
        return this.ephemeralStorage;
      case RESOURCE_PODS:
        return this.allowedPodNumber;
      default:
        return this.getScalar(name);
    }
  }

  clone(): Resource {
    const r = new Resource();
    r.milliCPU = this.milliCPU;
    r.memory = this.memory;
    r.ephemeralStorage = this.ephemeralStorage;
    r.allowedPodNumber = this.allowedPodNumber;
    if (this.scalar !== undefined) r.scalar = new Map(this.scalar);
    return r;
  }

  /** True when the pod requests nothing at all (NodeResourcesFit then checks only the pod count). */
  isZero(): boolean {
    return this.milliCPU === 0 && this.memory === 0 && this.ephemeralStorage === 0 && (this.scalar === undefined || this.scalar.size === 0);
  }
}

/** A pod's requests, computed once per pod. */
export interface PodRequests {
  /** Sum of containers, max with each init container, plus overhead. */
  readonly requests: Resource;
  /** The same with 100m / 200Mi standing in for each container's missing cpu / memory request. */
  readonly nonZeroMilliCPU: number;
  readonly nonZeroMemory: number;
}

/** Upstream's GetNonzeroRequests for one container's requests. */
function nonZero(list: ResourceList | undefined): [number, number] {
  const cpu = list?.[RESOURCE_CPU];
  const mem = list?.[RESOURCE_MEMORY];
  return [cpu === undefined ? DEFAULT_MILLI_CPU_REQUEST : quantityMilliValue(cpu), mem === undefined ? DEFAULT_MEMORY_REQUEST : quantityValue(mem)];
}

/** Upstream's calculateResource (NodeInfo) / computePodResourceRequest (NodeResourcesFit). */
export function computePodRequests(pod: Pod): PodRequests {
  const requests = new Resource();
  let nonZeroMilliCPU = 0;
  let nonZeroMemory = 0;
  for (const c of pod.spec.containers ?? []) {
    const list = c.resources?.requests;
    requests.addList(list);
    const [cpu, mem] = nonZero(list);
    nonZeroMilliCPU += cpu;
    nonZeroMemory += mem;
  }
  for (const c of pod.spec.initContainers ?? []) {
    const list = c.resources?.requests;
    requests.maxList(list);
    const [cpu, mem] = nonZero(list);
    nonZeroMilliCPU = Math.max(nonZeroMilliCPU, cpu);
    nonZeroMemory = Math.max(nonZeroMemory, mem);
  }
  const overhead = pod.spec.overhead;
  if (overhead !== undefined) {
    requests.addList(overhead);
    if (overhead[RESOURCE_CPU] !== undefined) nonZeroMilliCPU += quantityMilliValue(overhead[RESOURCE_CPU]);
    if (overhead[RESOURCE_MEMORY] !== undefined) nonZeroMemory += quantityValue(overhead[RESOURCE_MEMORY]);
  }
  return { requests, nonZeroMilliCPU, nonZeroMemory };
}

/** A node's allocatable resources (status.allocatable), as numbers. */
export function resourceFromList(list: ResourceList | undefined): Resource {
  const r = new Resource();
  r.addList(list);
  return r;
}
