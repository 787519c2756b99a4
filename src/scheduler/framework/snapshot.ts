/**
 * The cluster as one scheduling cycle sees it: NodeInfos by name and in scheduling order, plus
 * the nodes that hold pods with (anti-)affinity so affinity plugins skip the rest. The cache
 * refreshes a snapshot in place, copying only nodes whose generation moved.
 */
import { FitRows } from './fit-rows.js';
import { NodeInfo } from './node-info.js';
import { PodInfo } from './pod-info.js';
import type { Node, Pod } from './types.js';

/** Read access to the cycle's nodes; what plugins get from the handle. */
export interface NodeInfoLister {
  /** All nodes in scheduling order (zones interleaved). */
  list(): readonly NodeInfo[];
  /** Nodes with at least one pod that has pod affinity or anti-affinity. */
  havePodsWithAffinityList(): readonly NodeInfo[];
  /** Nodes with at least one pod that has required pod anti-affinity. */
  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[];
  get(nodeName: string): NodeInfo | undefined;
  numNodes(): number;
}

export class Snapshot implements NodeInfoLister {
  nodeInfoMap = new Map<string, NodeInfo>();
  nodeInfoList: NodeInfo[] = [];
  podsWithAffinityList: NodeInfo[] = [];
  podsWithRequiredAntiAffinityList: NodeInfo[] = [];
  /** The largest NodeInfo generation copied in; 0 for an empty snapshot. */
  generation = 0;
  /** NodeResourcesFit's numbers of every node here, side by side. */
  readonly fitRows = new FitRows();

  /** Adds a node's NodeInfo. */
  put(ni: NodeInfo): void {
    this.nodeInfoMap.set(ni.name, ni);
    this.fitRows.attach(ni);
  }

  /** Makes the NodeInfo already here equal to a fresh copy, keeping its identity and row. */
  refresh(existing: NodeInfo, copy: NodeInfo): void {
    const { fitRows, fitRow } = existing;
    Object.assign(existing, copy);
    existing.fitRows = fitRows;
    existing.fitRow = fitRow;
    this.fitRows.attach(existing);
  }

  /** Removes a node's NodeInfo. */
  remove(ni: NodeInfo): void {
    this.fitRows.detach(ni);
    this.nodeInfoMap.delete(ni.name);
  }

  list(): readonly NodeInfo[] {
    return this.nodeInfoList;
  }

  havePodsWithAffinityList(): readonly NodeInfo[] {
    return this.podsWithAffinityList;
  }

  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    return this.podsWithRequiredAntiAffinityList;
  }

  get(nodeName: string): NodeInfo | undefined {
    return this.nodeInfoMap.get(nodeName);
  }

  numNodes(): number {
    return this.nodeInfoList.length;
  }

  /** Rebuilds the affinity lists from nodeInfoList (after nodes or their pods changed). */
  rebuildAffinityLists(): void {
    this.podsWithAffinityList = this.nodeInfoList.filter((n) => n.podsWithAffinity.length > 0);
    this.podsWithRequiredAntiAffinityList = this.nodeInfoList.filter((n) => n.podsWithRequiredAntiAffinity.length > 0);
  }
}

/** A snapshot built directly from objects (upstream's NewSnapshot), for tests and tools. */
export function snapshotOf(pods: readonly Pod[], nodes: readonly Node[]): Snapshot {
  const s = new Snapshot();
  for (const node of nodes) {
    const ni = new NodeInfo(node);
    s.put(ni);
    s.nodeInfoList.push(ni);
  }
  for (const pod of pods) {
    const name = pod.spec.nodeName;
    if (!name) continue;
    let ni = s.nodeInfoMap.get(name);
    if (ni === undefined) {
      // Pods on unknown nodes are kept, as upstream, but the node is not schedulable.
      ni = new NodeInfo();
      ni.name = name;
      s.put(ni);
    }
    ni.addPod(new PodInfo(pod));
  }
  s.rebuildAffinityLists();
  for (const ni of s.nodeInfoMap.values()) s.generation = Math.max(s.generation, ni.generation);
  return s;
}
