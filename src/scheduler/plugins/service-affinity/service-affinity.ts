/**
 * ServiceAffinity (PreFilter with AddPod/RemovePod, Filter, Score, NormalizeScore; off by
 * default), as upstream Kubernetes 1.21: pods of one Service land on nodes with the same values
 * of `affinityLabels`, and are spread across the values of `antiAffinityLabelsPreference`.
 * Services come from the handle's `listers.services` (spec.selector as a label map).
 */
import { labelSelectorFromSet } from '../../../machinery/label-selector.js';
import { type CycleState, type StateData, StateKey } from '../../framework/cycle-state.js';
import { ActionType, type ClusterEvent } from '../../framework/events.js';
import type { FrameworkHandle } from '../../framework/handle.js';
import {
  type FilterPlugin,
  MAX_NODE_SCORE,
  type NodeScore,
  type PreFilterExtensions,
  type PreFilterPlugin,
  type ScorePlugin,
} from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PodInfo } from '../../framework/pod-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { errorStatus, type Status, SUCCESS, unschedulable } from '../../framework/status.js';
import { type Pod, podUID } from '../../framework/types.js';

export const NAME = 'ServiceAffinity';
export const ERR_REASON = "node(s) didn't match service affinity";

export interface ServiceAffinityArgs {
  /** Labels whose values must be the same on the nodes of all pods of a Service. */
  affinityLabels?: string[];
  /** Labels whose values the pods of a Service should spread across (scoring). */
  antiAffinityLabelsPreference?: string[];
}

class PreFilterState implements StateData {
  constructor(
    /** Assigned pods of the namespace with the incoming pod's labels. */
    readonly matchingPods: Pod[],
    readonly services: Record<string, string>[],
  ) {}
  clone(): PreFilterState {
    return new PreFilterState(this.matchingPods.slice(), this.services);
  }
}

const preFilterStateKey = new StateKey<PreFilterState>(`PreFilter${NAME}`);

// Upstream's createSelectorFromLabels: an empty set selects everything.
const selectorFromLabels = (set: Record<string, string> | undefined) => labelSelectorFromSet(set);

export class ServiceAffinity implements PreFilterPlugin, FilterPlugin, ScorePlugin {
  readonly name = NAME;
  private readonly affinityLabels: readonly string[];
  private readonly antiAffinityLabels: readonly string[];
  private readonly extensions: PreFilterExtensions;

  constructor(
    args: ServiceAffinityArgs,
    private readonly handle: Pick<FrameworkHandle, 'snapshotSharedLister' | 'listers'>,
  ) {
    this.affinityLabels = args.affinityLabels ?? [];
    this.antiAffinityLabels = args.antiAffinityLabelsPreference ?? [];
    this.extensions = { addPod: (st, pod, pi) => this.addPod(st, pod, pi), removePod: (st, _pod, pi) => this.removePod(st, pi) };
  }

  preFilter(state: CycleState, pod: Pod): Status {
    const ns = pod.metadata.namespace ?? '';
    const selector = selectorFromLabels(pod.metadata.labels);
    const matching: Pod[] = [];
    for (const ni of this.handle.snapshotSharedLister().list()) {
      for (const pi of ni.pods) if ((pi.pod.metadata.namespace ?? '') === ns && selector(pi.pod.metadata.labels)) matching.push(pi.pod);
    }
    state.write(preFilterStateKey, new PreFilterState(matching, podServices(pod, this.handle.listers)));
    return SUCCESS;
  }

  preFilterExtensions(): PreFilterExtensions {
    return this.extensions;
  }

  private addPod(state: CycleState, podToSchedule: Pod, pi: PodInfo): Status {
    const s = state.read(preFilterStateKey);
    if (s === undefined) return errorStatus(`error reading "${preFilterStateKey.name}" from cycleState: not found`);
    const p = pi.pod;
    if ((p.metadata.namespace ?? '') === (podToSchedule.metadata.namespace ?? '') && selectorFromLabels(podToSchedule.metadata.labels)(p.metadata.labels)) {
      s.matchingPods.push(p);
    }
    return SUCCESS;
  }

  private removePod(state: CycleState, pi: PodInfo): Status {
    const s = state.read(preFilterStateKey);
    if (s === undefined) return errorStatus(`error reading "${preFilterStateKey.name}" from cycleState: not found`);
    const m = pi.pod.metadata;
    const i = s.matchingPods.findIndex((p) => p.metadata.name === m.name && (p.metadata.namespace ?? '') === (m.namespace ?? ''));
    if (i >= 0) s.matchingPods.splice(i, 1);
    return SUCCESS;
  }

  /**
   * The node must carry the affinity label values the pod's nodeSelector names; those it does
   * not name are taken from the node of the first other pod of the same Service.
   */
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    if (this.affinityLabels.length === 0) return SUCCESS;
    const node = nodeInfo.node;
    if (node === undefined) return errorStatus('node not found');
    const s = state.read(preFilterStateKey);
    if (s === undefined) return errorStatus(`error reading "${preFilterStateKey.name}" from cycleState: not found`);
    const want: Record<string, string> = {};
    const nodeSelector = pod.spec.nodeSelector ?? {};
    for (const l of this.affinityLabels) if (typeof nodeSelector[l] === 'string') want[l] = nodeSelector[l];
    if (Object.keys(want).length < this.affinityLabels.length && s.services.length > 0) {
      const first = filterOutPods(nodeInfo, s.matchingPods)[0];
      if (first !== undefined) {
        const other = this.handle.snapshotSharedLister().get(first.spec.nodeName ?? '')?.node;
        if (other === undefined) return errorStatus('node not found');
        const labels = other.metadata.labels ?? {};
        for (const l of this.affinityLabels) if (!(l in want) && typeof labels[l] === 'string') want[l] = labels[l];
      }
    }
    return selectorFromLabels(want)(node.metadata.labels) ? SUCCESS : unschedulable(ERR_REASON);
  }

  /** Pods of the pod's first Service on the node (raw; NormalizeScore spreads them). */
  score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const services = podServices(pod, this.handle.listers);
    if (services.length === 0 || nodeInfo.pods.length === 0 || Object.keys(services[0]).length === 0) return 0;
    const selector = labelSelectorFromSet(services[0]);
    const ns = pod.metadata.namespace ?? '';
    let n = 0;
    for (const pi of nodeInfo.pods) {
      const m = pi.pod.metadata;
      // Terminating pods do not count for spreading.
      if ((m.namespace ?? '') === ns && !m.deletionTimestamp && selector(m.labels)) n++;
    }
    return n;
  }

  /** Per preference label: 100 × (service pods outside the node's label value) / all service pods, averaged. */
  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status {
    const lister = this.handle.snapshotSharedLister();
    const result = scores.map(() => 0);
    for (const label of this.antiAffinityLabels) {
      let total = 0;
      const perValue = new Map<string, number>();
      const valueByNode: (string | undefined)[] = [];
      for (const ns of scores) {
        total += ns.score;
        const ni = lister.get(ns.name);
        if (ni === undefined) return errorStatus(`nodeinfo not found for node name ${JSON.stringify(ns.name)}`);
        const v = ni.node?.metadata.labels?.[label];
        valueByNode.push(typeof v === 'string' ? v : undefined);
        if (typeof v === 'string') perValue.set(v, (perValue.get(v) ?? 0) + ns.score);
      }
      scores.forEach((_ns, i) => {
        const v = valueByNode[i];
        if (v === undefined) return;
        const f = total > 0 ? MAX_NODE_SCORE * ((total - (perValue.get(v) ?? 0)) / total) : MAX_NODE_SCORE;
        result[i] += f / this.antiAffinityLabels.length;
      });
    }
    scores.forEach((ns, i) => {
      ns.score = Math.trunc(result[i]);
    });
    return SUCCESS;
  }

  eventsToRegister(): ClusterEvent[] {
    if (this.affinityLabels.length === 0) return [];
    return [
      // A Service pod relabelled or deleted may no longer pin the Service to its node's labels.
      { resource: 'Pod', actionType: ActionType.Update | ActionType.Delete, label: 'PodUpdateOrDelete' },
      { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel, label: 'NodeAddOrLabelUpdate' },
      { resource: 'Service', actionType: ActionType.Update | ActionType.Delete, label: 'ServiceUpdateOrDelete' },
    ];
  }
}

/** Upstream's helper.GetPodServices: selectors of the pod's namespace's Services that select it (nil selects nothing). */
function podServices(pod: Pod, listers: FrameworkHandle['listers']): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const svc of listers.services.listInNamespace(pod.metadata.namespace ?? '')) {
    const sel = svc.spec?.selector;
    if (sel === null || typeof sel !== 'object') continue;
    if (labelSelectorFromSet(sel as Record<string, string>)(pod.metadata.labels)) out.push(sel as Record<string, string>);
  }
  return out;
}

/** Upstream's NodeInfo.FilterOutPods: drops pods said to be on this node but absent from it (preemption's removals). */
function filterOutPods(nodeInfo: NodeInfo, pods: readonly Pod[]): Pod[] {
  const out: Pod[] = [];
  for (const p of pods) {
    if (p.spec.nodeName !== nodeInfo.name) out.push(p);
    else if (nodeInfo.pods.some((pi) => pi.uid === podUID(p))) out.push(p);
  }
  return out;
}

export const factory: PluginFactory = (args, handle) => new ServiceAffinity((args ?? {}) as ServiceAffinityArgs, handle);
