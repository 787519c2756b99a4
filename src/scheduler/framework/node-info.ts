/**
 * NodeInfo: one node and the pods on it (bound and assumed), with requested / allocatable kept
 * as numbers. Every change bumps `generation` from one global counter, so the cache copies into
 * the per-cycle snapshot only the nodes that changed since the snapshot's generation.
 */
import type { FitRows } from './fit-rows.js';
import { HostPortInfo } from './host-ports.js';
import type { PodInfo } from './pod-info.js';
import { Resource, resourceFromList } from './resources.js';
import type { Node } from './types.js';

let lastGeneration = 0;

/** A new, strictly larger generation; shared by all NodeInfos so snapshots compare them. */
export function nextGeneration(): number {
  return ++lastGeneration;
}

/** Image size and spread across nodes, as upstream's ImageStateSummary. */
export interface ImageStateSummary {
  readonly size: number;
  /** Number of nodes that have the image (maintained by the cache). */
  numNodes: number;
}

export class NodeInfo {
  node: Node | undefined = undefined;
  /** Node name, also while the node object itself is gone but pods remain ("ghost" node). */
  name = '';
  pods: PodInfo[] = [];
  podsWithAffinity: PodInfo[] = [];
  podsWithRequiredAntiAffinity: PodInfo[] = [];
  usedPorts = new HostPortInfo();
  /** Sum of pod requests. */
  requested = new Resource();
  /** Sum of pod requests with 100m / 200Mi for containers that name none (scoring only: milliCPU, memory). */
  nonZeroRequested = new Resource();
  allocatable = new Resource();
  /** Image name -> summary, for the images this node reports. */
  imageStates = new Map<string, ImageStateSummary>();
  generation = nextGeneration();
  /** The snapshot table that mirrors this node's fit numbers (fit-rows.ts); none on copies. */
  fitRows: FitRows | undefined = undefined;
  fitRow = -1;

  constructor(node?: Node) {
    if (node !== undefined) this.setNode(node);
  }

  /** Replaces the node object; allocatable is re-read from status.allocatable. */
  setNode(node: Node): void {
    this.node = node;
    this.name = node.metadata.name ?? '';
    this.allocatable = resourceFromList(node.status?.allocatable);
    this.generation = nextGeneration();
    this.fitRows?.write(this);
  }

  /** Forgets the node object but keeps pods, as upstream does until its pods are gone. */
  removeNode(): void {
    this.node = undefined;
    this.imageStates = new Map();
    this.generation = nextGeneration();
  }

  /** Pods the node can hold (status.allocatable.pods). */
  get allowedPodNumber(): number {
    return this.allocatable.allowedPodNumber;
  }

  addPod(pi: PodInfo): void {
    this.pods.push(pi);
    if (pi.hasAffinity) this.podsWithAffinity.push(pi);
    if (pi.hasRequiredAntiAffinity) this.podsWithRequiredAntiAffinity.push(pi);
    this.account(pi, 1);
    this.generation = nextGeneration();
    this.fitRows?.write(this);
  }

  /** Removes the pod with this UID; false when it is not on the node. */
  removePod(uid: string): boolean {
    const i = this.pods.findIndex((p) => p.uid === uid);
    if (i < 0) return false;
    const pi = this.pods[i];
    this.pods.splice(i, 1);
    if (pi.hasAffinity) this.podsWithAffinity = this.podsWithAffinity.filter((p) => p.uid !== uid);
    if (pi.hasRequiredAntiAffinity) this.podsWithRequiredAntiAffinity = this.podsWithRequiredAntiAffinity.filter((p) => p.uid !== uid);
    this.account(pi, -1);
    this.generation = nextGeneration();
    this.fitRows?.write(this);
    return true;
  }

  private account(pi: PodInfo, sign: 1 | -1): void {
    this.requested.addResource(pi.requests.requests, sign);
    this.nonZeroRequested.milliCPU += sign * pi.requests.nonZeroMilliCPU;
    this.nonZeroRequested.memory += sign * pi.requests.nonZeroMemory;
    for (const p of pi.hostPorts) {
      if (sign === 1) this.usedPorts.add(p);
      else this.usedPorts.remove(p);
    }
  }

  /**
   * A copy that can be changed without touching this one (preemption, nominated pods, the
   * snapshot). Pod lists are copied, PodInfos and the node object are shared (immutable).
   */
  clone(): NodeInfo {
    const c = Object.create(NodeInfo.prototype) as NodeInfo;
    c.node = this.node;
    c.name = this.name;
    c.pods = this.pods.slice();
    c.podsWithAffinity = this.podsWithAffinity.slice();
    c.podsWithRequiredAntiAffinity = this.podsWithRequiredAntiAffinity.slice();
    c.usedPorts = this.usedPorts.clone();
    c.requested = this.requested.clone();
    c.nonZeroRequested = this.nonZeroRequested.clone();
    c.allocatable = this.allocatable.clone();
    c.imageStates = this.imageStates;
    c.generation = this.generation;
    c.fitRows = undefined;
    c.fitRow = -1;
    return c;
  }
}
