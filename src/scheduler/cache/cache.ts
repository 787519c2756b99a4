/**
 * The scheduler cache, as upstream's schedulerCache: NodeInfos built from informer events plus
 * pods the scheduler assumed (placed but not yet confirmed bound). updateSnapshot() refreshes a
 * Snapshot copying only the nodes changed since the last call, in place, so pointers held in
 * the snapshot's lists stay valid.
 */
import type { Clock } from '../framework/clock.js';
import { type ImageStateSummary, NodeInfo } from '../framework/node-info.js';
import { PodInfo } from '../framework/pod-info.js';
import type { Snapshot } from '../framework/snapshot.js';
import { type Node, type Pod, podKey, podUID } from '../framework/types.js';
import type { WellKnownNames } from '../framework/well-known.js';
import { NodeTree } from './node-tree.js';

interface PodState {
  podInfo: PodInfo;
  nodeName: string;
  assumed: boolean;
  bindingFinished: boolean;
  /** When an assumed pod whose binding finished expires, ms; undefined until then. */
  deadline: number | undefined;
}

/** Upstream's durationToExpireAssumedPod (1.21): 15 minutes. */
export const DEFAULT_ASSUMED_POD_TTL_MS = 15 * 60 * 1000;

export class SchedulerCache {
  private readonly nodes = new Map<string, NodeInfo>();
  private readonly pods = new Map<string, PodState>();
  /** UIDs of the pods still assumed, so expiry checks do not walk every cached pod. */
  private readonly assumedUIDs = new Set<string>();
  private readonly tree: NodeTree;
  private readonly images = new Map<string, ImageStateSummary & { nodes: Set<string> }>();
  /** Nodes changed since the last updateSnapshot. */
  private readonly dirty = new Set<string>();
  private nodeSetChanged = true;

  constructor(
    private readonly clock: Clock,
    names: WellKnownNames,
    private readonly assumedPodTtlMs = DEFAULT_ASSUMED_POD_TTL_MS,
  ) {
    this.tree = new NodeTree(names);
  }

  // ---- pods ----

  /** Places a pod the scheduler chose a node for (pod.spec.nodeName set), before binding. */
  assumePod(pod: Pod): void {
    const uid = podUID(pod);
    if (this.pods.has(uid)) throw new Error(`pod ${podKey(pod)} is in the cache, so can't be assumed`);
    const pi = new PodInfo(pod);
    this.addToNode(pi);
    this.pods.set(uid, { podInfo: pi, nodeName: pod.spec.nodeName ?? '', assumed: true, bindingFinished: false, deadline: undefined });
    this.assumedUIDs.add(uid);
  }

  /** Binding was sent: the assumption now expires after the TTL unless the informer confirms it. */
  finishBinding(pod: Pod): void {
    const st = this.pods.get(podUID(pod));
    if (st === undefined || !st.assumed) return;
    st.bindingFinished = true;
    st.deadline = this.clock.now() + this.assumedPodTtlMs;
  }

  /** Undoes assumePod after a failed reserve/permit/bind. */
  forgetPod(pod: Pod): void {
    const uid = podUID(pod);
    const st = this.pods.get(uid);
    if (st === undefined || !st.assumed) return;
    this.removeFromNode(st);
    this.pods.delete(uid);
    this.assumedUIDs.delete(uid);
  }

  /** A bound pod was seen (informer add): confirms an assumption or adds the pod. */
  addPod(pod: Pod): void {
    const uid = podUID(pod);
    const st = this.pods.get(uid);
    if (st?.assumed) {
      if (st.nodeName !== pod.spec.nodeName) {
        this.removeFromNode(st);
        st.podInfo = new PodInfo(pod);
        st.nodeName = pod.spec.nodeName ?? '';
        this.addToNode(st.podInfo);
      } else if (st.podInfo.pod !== pod) {
        this.replacePod(st, pod);
      }
      st.assumed = false;
      st.deadline = undefined;
      this.assumedUIDs.delete(uid);
      return;
    }
    if (st !== undefined) {
      this.updatePod(st.podInfo.pod, pod);
      return;
    }
    const pi = new PodInfo(pod);
    this.addToNode(pi);
    this.pods.set(uid, { podInfo: pi, nodeName: pod.spec.nodeName ?? '', assumed: false, bindingFinished: false, deadline: undefined });
  }

  updatePod(_oldPod: Pod, newPod: Pod): void {
    const st = this.pods.get(podUID(newPod));
    if (st === undefined || st.assumed) {
      this.addPod(newPod);
      return;
    }
    this.replacePod(st, newPod);
  }

  removePod(pod: Pod): void {
    const uid = podUID(pod);
    const st = this.pods.get(uid);
    if (st === undefined) return;
    this.removeFromNode(st);
    this.pods.delete(uid);
    this.assumedUIDs.delete(uid);
  }

  isAssumedPod(pod: Pod): boolean {
    return this.pods.get(podUID(pod))?.assumed ?? false;
  }

  /** The cached version of a pod (assumed or confirmed). */
  getPod(pod: Pod): Pod | undefined {
    return this.pods.get(podUID(pod))?.podInfo.pod;
  }

  /** Drops assumed pods whose binding finished more than the TTL ago (the informer never confirmed them). */
  cleanupAssumedPods(): void {
    const now = this.clock.now();
    for (const uid of this.assumedUIDs) {
      const st = this.pods.get(uid);
      if (st === undefined || !st.assumed) {
        this.assumedUIDs.delete(uid);
        continue;
      }
      if (st.bindingFinished && st.deadline !== undefined && now >= st.deadline) {
        this.removeFromNode(st);
        this.pods.delete(uid);
        this.assumedUIDs.delete(uid);
      }
    }
  }

  private replacePod(st: PodState, pod: Pod): void {
    this.removeFromNode(st);
    st.podInfo = new PodInfo(pod);
    st.nodeName = pod.spec.nodeName ?? '';
    this.addToNode(st.podInfo);
  }

  private addToNode(pi: PodInfo): void {
    const name = pi.pod.spec.nodeName ?? '';
    let ni = this.nodes.get(name);
    if (ni === undefined) {
      // The pod's node is not known yet: keep a node-less NodeInfo so accounting is right when it arrives.
      ni = new NodeInfo();
      ni.name = name;
      this.nodes.set(name, ni);
    }
    ni.addPod(pi);
    this.dirty.add(name);
  }

  private removeFromNode(st: PodState): void {
    const ni = this.nodes.get(st.nodeName);
    if (ni === undefined) return;
    ni.removePod(st.podInfo.uid);
    this.dirty.add(st.nodeName);
    if (ni.pods.length === 0 && ni.node === undefined) this.nodes.delete(st.nodeName);
  }

  // ---- nodes ----

  addNode(node: Node): void {
    const name = node.metadata.name ?? '';
    let ni = this.nodes.get(name);
    if (ni === undefined) this.nodes.set(name, (ni = new NodeInfo()));
    else if (ni.node !== undefined) this.removeImages(ni);
    ni.setNode(node);
    this.addImages(ni);
    this.tree.add(node);
    this.dirty.add(name);
    this.nodeSetChanged = true;
  }

  updateNode(_oldNode: Node, newNode: Node): void {
    this.addNode(newNode);
  }

  /** Removes the node; its NodeInfo stays while pods still point at it, as upstream. */
  removeNode(node: Node): void {
    const name = node.metadata.name ?? '';
    const ni = this.nodes.get(name);
    if (ni === undefined) return;
    this.removeImages(ni);
    ni.removeNode();
    if (ni.pods.length === 0) this.nodes.delete(name);
    this.tree.remove(name);
    this.dirty.add(name);
    this.nodeSetChanged = true;
  }

  nodeCount(): number {
    return this.tree.size;
  }

  podCount(): number {
    return this.pods.size;
  }

  /** Pods placed by the scheduler whose binding the informer has not confirmed yet. */
  assumedPodCount(): number {
    return this.assumedUIDs.size;
  }

  private addImages(ni: NodeInfo): void {
    const map = new Map<string, ImageStateSummary>();
    for (const img of ni.node?.status?.images ?? []) {
      for (const raw of img.names ?? []) {
        const name = normalizedImageName(raw);
        let st = this.images.get(name);
        if (st === undefined) this.images.set(name, (st = { size: img.sizeBytes ?? 0, numNodes: 0, nodes: new Set() }));
        st.nodes.add(ni.name);
        st.numNodes = st.nodes.size;
        map.set(name, st);
      }
    }
    ni.imageStates = map;
  }

  private removeImages(ni: NodeInfo): void {
    for (const name of ni.imageStates.keys()) {
      const st = this.images.get(name);
      if (st === undefined) continue;
      st.nodes.delete(ni.name);
      st.numNodes = st.nodes.size;
      if (st.nodes.size === 0) this.images.delete(name);
    }
  }

  // ---- snapshot ----

  /** Brings the snapshot up to date: changed nodes are cloned into it, lists rebuilt only when needed. */
  updateSnapshot(s: Snapshot): void {
    let affinityChanged = false;
    for (const name of this.dirty) {
      const ni = this.nodes.get(name);
      const existing = s.nodeInfoMap.get(name);
      if (ni === undefined || ni.node === undefined) {
        if (existing !== undefined) {
          s.remove(existing);
          this.nodeSetChanged = true;
        }
        continue;
      }
      if (ni.generation > s.generation) s.generation = ni.generation;
      const clone = ni.clone();
      if (existing === undefined) {
        s.put(clone);
        this.nodeSetChanged = true;
        continue;
      }
      if (existing.podsWithAffinity.length > 0 !== clone.podsWithAffinity.length > 0) affinityChanged = true;
      if (existing.podsWithRequiredAntiAffinity.length > 0 !== clone.podsWithRequiredAntiAffinity.length > 0) affinityChanged = true;
      s.refresh(existing, clone);
    }
    this.dirty.clear();
    if (this.nodeSetChanged) {
      s.nodeInfoList = [];
      for (const name of this.tree.list()) {
        const ni = s.nodeInfoMap.get(name);
        if (ni !== undefined) s.nodeInfoList.push(ni);
      }
      this.nodeSetChanged = false;
      affinityChanged = true;
    }
    if (affinityChanged) s.rebuildAffinityLists();
  }
}

/** Upstream's normalizedImageName: an untagged name means `:latest`. */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}
