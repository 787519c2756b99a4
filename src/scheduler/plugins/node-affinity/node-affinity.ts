/**
 * NodeAffinity (PreFilter, Filter, PreScore, Score): a node must match the pod's nodeSelector and
 * required node affinity (and the profile's addedAffinity); feasible nodes score the summed
 * weights of the preferred terms they match, normalized so the best scores 100.
 */
import { labelSelectorFromSet, type LabelMatcher } from '../../../machinery/label-selector.js';
import type { CycleState, StateData } from '../../framework/cycle-state.js';
import { StateKey } from '../../framework/cycle-state.js';
import { ActionType } from '../../framework/events.js';
import type { FilterPlugin, NodeScore, PreFilterPlugin, PreScorePlugin, ScorePlugin } from '../../framework/interfaces.js';
import { MAX_NODE_SCORE } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { errorStatus, SKIP, type Status, SUCCESS, unresolvable } from '../../framework/status.js';
import type { Affinity, Node, Pod } from '../../framework/types.js';
import { defaultNormalizeScore } from '../taint-toleration/normalize.js';
import { aggregate, NodeSelectorMatcher, PreferredTerms } from './node-selector.js';

export const NAME = 'NodeAffinity';
export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
export const ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity";

/** NodeAffinityArgs (v1beta1). */
export interface NodeAffinityArgs {
  /** Applied to every pod of the profile, on top of the pod's own affinity. */
  addedAffinity?: NonNullable<Affinity['nodeAffinity']>;
}

/** A pod's nodeSelector and required node affinity (upstream's RequiredNodeAffinity); both must match. */
export class RequiredNodeAffinity {
  constructor(
    readonly labelSelector: LabelMatcher | undefined,
    readonly nodeSelector: NodeSelectorMatcher | undefined,
  ) {}

  /** Nothing required: every node matches. */
  get isEmpty(): boolean {
    return this.labelSelector === undefined && this.nodeSelector === undefined;
  }

  match(node: Node): boolean {
    if (this.labelSelector !== undefined && !this.labelSelector(node.metadata.labels)) return false;
    return this.nodeSelector === undefined || this.nodeSelector.match(node);
  }
}

// Compiled per pod object: pods are immutable, and a pod retried keeps its selectors.
const requiredOf = new WeakMap<Pod, RequiredNodeAffinity>();
const preferredOf = new WeakMap<Pod, PreferredTerms | Error | undefined>();

/** Upstream's GetRequiredNodeAffinity; invalid terms match nothing rather than fail. */
export function requiredNodeAffinity(pod: Pod): RequiredNodeAffinity {
  let r = requiredOf.get(pod);
  if (r === undefined) {
    const sel = pod.spec.nodeSelector;
    const ns = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    r = new RequiredNodeAffinity(
      sel !== undefined && Object.keys(sel).length > 0 ? labelSelectorFromSet(sel) : undefined,
      ns !== undefined && ns !== null ? new NodeSelectorMatcher(ns.nodeSelectorTerms ?? []) : undefined,
    );
    requiredOf.set(pod, r);
  }
  return r;
}

/** The pod's preferred terms, undefined when it has none, an Error when one does not parse (as 1.21). */
function podPreferredTerms(pod: Pod): PreferredTerms | Error | undefined {
  if (preferredOf.has(pod)) return preferredOf.get(pod);
  const terms = pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
  let out: PreferredTerms | Error | undefined;
  if (terms !== undefined && terms !== null) {
    const p = new PreferredTerms(terms);
    const errs = p.errors();
    out = errs.length > 0 ? new Error(aggregate(errs)) : p;
  }
  preferredOf.set(pod, out);
  return out;
}

class PreFilterState implements StateData {
  constructor(readonly required: RequiredNodeAffinity) {}
  /** Immutable: derived from the pod alone. */
  clone(): StateData {
    return this;
  }
}

class PreScoreState implements StateData {
  constructor(readonly preferred: PreferredTerms | undefined) {}
  clone(): StateData {
    return this;
  }
}

const preFilterStateKey = new StateKey<PreFilterState>(`PreFilter${NAME}`);
const preScoreStateKey = new StateKey<PreScoreState>(`PreScore${NAME}`);

export class NodeAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  readonly name = NAME;
  private readonly addedNodeSelector: NodeSelectorMatcher | undefined;
  private readonly addedPrefSchedTerms: PreferredTerms | undefined;

  constructor(args: NodeAffinityArgs = {}) {
    const added = args.addedAffinity;
    const req = added?.requiredDuringSchedulingIgnoredDuringExecution;
    if (req !== undefined && req !== null) {
      const ns = new NodeSelectorMatcher(req.nodeSelectorTerms ?? []);
      const errs = ns.errors();
      if (errs.length > 0) throw new Error(`parsing addedAffinity.requiredDuringSchedulingIgnoredDuringExecution: ${aggregate(errs)}`);
      this.addedNodeSelector = ns;
    }
    const pref = added?.preferredDuringSchedulingIgnoredDuringExecution;
    if (pref !== undefined && pref !== null && pref.length > 0) {
      const terms = new PreferredTerms(pref);
      const errs = terms.errors();
      if (errs.length > 0) throw new Error(`parsing addedAffinity.preferredDuringSchedulingIgnoredDuringExecution: ${aggregate(errs)}`);
      this.addedPrefSchedTerms = terms;
    }
  }

  /** Skip when nothing is required: upstream's Filter would pass every node (1.21 runs it anyway). */
  preFilter(state: CycleState, pod: Pod): Status {
    const required = requiredNodeAffinity(pod);
    if (required.isEmpty && this.addedNodeSelector === undefined) return SKIP;
    state.write(preFilterStateKey, new PreFilterState(required));
    return SUCCESS;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    const node = nodeInfo.node;
    if (node === undefined) return errorStatus('node not found');
    if (this.addedNodeSelector !== undefined && !this.addedNodeSelector.match(node)) return unresolvable(ERR_REASON_ENFORCED);
    // Without PreFilter (disabled in the profile) the pod's selectors are compiled here.
    const required = state.read(preFilterStateKey)?.required ?? requiredNodeAffinity(pod);
    return required.match(node) ? SUCCESS : unresolvable(ERR_REASON_POD);
  }

  /** Skip when there is nothing to prefer: every node would score 0, and 0 normalizes to 0. */
  preScore(state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): Status {
    if (nodes.length === 0) return SUCCESS;
    const preferred = podPreferredTerms(pod);
    if (preferred instanceof Error) return errorStatus(preferred);
    if (preferred === undefined && this.addedPrefSchedTerms === undefined) return SKIP;
    state.write(preScoreStateKey, new PreScoreState(preferred));
    return SUCCESS;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const node = nodeInfo.node;
    if (node === undefined) throw new Error(`getting node ${JSON.stringify(nodeInfo.name)} from Snapshot: node not found`);
    let count = this.addedPrefSchedTerms?.score(node) ?? 0;
    const s = state.read(preScoreStateKey);
    // PreScore disabled in the profile: compute here, as upstream's fallback.
    const preferred = s !== undefined ? s.preferred : podPreferredTerms(pod);
    if (preferred instanceof Error) throw preferred;
    if (preferred !== undefined) count += preferred.score(node);
    return count;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status {
    return defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
  }

  eventsToRegister() {
    return [{ resource: 'Node' as const, actionType: ActionType.Add | ActionType.UpdateNodeLabel, label: 'Node' }];
  }
}

export const factory: PluginFactory = (args) => new NodeAffinity((args ?? {}) as NodeAffinityArgs);
