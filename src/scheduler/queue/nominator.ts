/** Pods nominated to nodes (status.nominatedNodeName, or set by preemption this cycle). */
import type { PodNominator } from '../framework/handle.js';
import type { PodInfo } from '../framework/pod-info.js';
import { type Pod, podUID } from '../framework/types.js';

export class Nominator implements PodNominator {
  private readonly byNode = new Map<string, PodInfo[]>();
  private readonly nodeOf = new Map<string, string>();

  /** Nominates to nodeName, or to the pod's status.nominatedNodeName when nodeName is "". */
  addNominatedPod(pi: PodInfo, nodeName: string): void {
    this.delete(pi.uid);
    const node = nodeName || pi.pod.status?.nominatedNodeName || '';
    if (node === '') return;
    this.nodeOf.set(pi.uid, node);
    const list = this.byNode.get(node);
    if (list === undefined) this.byNode.set(node, [pi]);
    else if (!list.some((p) => p.uid === pi.uid)) list.push(pi);
  }

  deleteNominatedPodIfExists(pod: Pod): void {
    this.delete(podUID(pod));
  }

  /**
   * Keeps a nomination made this cycle when the update does not carry it yet (the API write is
   * in flight), as upstream: only a pod whose nominatedNodeName was set and is now cleared loses it.
   */
  updateNominatedPod(oldPod: Pod, newPodInfo: PodInfo): void {
    let node = '';
    const had = this.nodeOf.get(podUID(oldPod));
    if (had !== undefined && !oldPod.status?.nominatedNodeName && !newPodInfo.pod.status?.nominatedNodeName) node = had;
    this.delete(podUID(oldPod));
    this.addNominatedPod(newPodInfo, node);
  }

  /** True when no pod is nominated anywhere (lets filtering skip the per-node lookup). */
  isEmpty(): boolean {
    return this.nodeOf.size === 0;
  }

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.byNode.get(nodeName) ?? NONE;
  }

  nominatedNodeOf(uid: string): string | undefined {
    return this.nodeOf.get(uid);
  }

  private delete(uid: string): void {
    const node = this.nodeOf.get(uid);
    if (node === undefined) return;
    this.nodeOf.delete(uid);
    const rest = (this.byNode.get(node) ?? []).filter((p) => p.uid !== uid);
    if (rest.length === 0) this.byNode.delete(node);
    else this.byNode.set(node, rest);
  }
}

const NONE: readonly PodInfo[] = [];
