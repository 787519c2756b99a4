/**
 * Finding a node for one pod (upstream's genericScheduler): PreFilter, Filter over a rotating
 * window of nodes until enough feasible ones are found, PreScore/Score, and a host picked at
 * random among the best. Throws FitError when no node fits.
 */
import type { RandomInt } from './framework/clock.js';
import type { CycleState } from './framework/cycle-state.js';
import { FitError } from './framework/fit-error.js';
import type { NodeScore, NodeToStatusMap } from './framework/interfaces.js';
import type { NodeInfo } from './framework/node-info.js';
import type { Framework } from './framework/runtime.js';
import type { Snapshot } from './framework/snapshot.js';
import type { Pod } from './framework/types.js';

/** Upstream's minFeasibleNodesToFind: always look for at least this many feasible nodes. */
export const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** Upstream's minFeasibleNodesPercentageToFind. */
export const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/**
 * Upstream's numFeasibleNodesToFind: all nodes below 100 or at 100%; otherwise the configured
 * percentage, or adaptively 50% minus 1% per 125 nodes (at least 5%), and never fewer than 100.
 * Integer arithmetic as upstream's int32.
 */
export function numFeasibleNodesToFind(numAllNodes: number, percentageOfNodesToScore: number): number {
  if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND || percentageOfNodesToScore >= 100) return numAllNodes;
  let pct = percentageOfNodesToScore;
  if (pct <= 0) {
    pct = 50 - Math.trunc(numAllNodes / 125);
    if (pct < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) pct = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
  }
  const n = Math.trunc((numAllNodes * pct) / 100);
  return n < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : n;
}

export interface ScheduleResult {
  suggestedHost: string;
  evaluatedNodes: number;
  feasibleNodes: number;
}

export class NoNodesAvailableError extends Error {
  constructor() {
    super('no nodes available to schedule pods');
  }
}

export class PodScheduler {
  /** Where the next cycle starts examining nodes, so every node gets its turn. */
  nextStartNodeIndex = 0;

  constructor(
    private readonly percentageOfNodesToScore: number,
    private readonly random: RandomInt,
  ) {}

  /** Picks a node for the pod or throws FitError / NoNodesAvailableError / a plugin Error. */
  schedule(fwk: Framework, state: CycleState, pod: Pod, snapshot: Snapshot): ScheduleResult {
    const all = snapshot.nodeInfoList;
    if (all.length === 0) throw new NoNodesAvailableError();
    const { feasible, statuses, unschedulablePlugins } = this.findNodesThatFitPod(fwk, state, pod, all);
    if (feasible.length === 0) throw new FitError(pod, all.length, { nodeToStatusMap: statuses, unschedulablePlugins });
    if (feasible.length === 1) return { suggestedHost: feasible[0].name, evaluatedNodes: 1 + statuses.size, feasibleNodes: 1 };
    const scores = prioritizeNodes(fwk, state, pod, feasible);
    return { suggestedHost: this.selectHost(scores), evaluatedNodes: feasible.length + statuses.size, feasibleNodes: feasible.length };
  }

  findNodesThatFitPod(
    fwk: Framework,
    state: CycleState,
    pod: Pod,
    all: readonly NodeInfo[],
  ): { feasible: NodeInfo[]; statuses: NodeToStatusMap; unschedulablePlugins: Set<string> } {
    const statuses: NodeToStatusMap = new Map();
    const unschedulablePlugins = new Set<string>();
    const pre = fwk.runPreFilterPlugins(state, pod);
    if (!pre.isSuccess()) {
      if (!pre.isUnschedulable()) throw pre.asError();
      // Every node fails for the same reason; upstream records it per node for the message.
      for (const n of all) statuses.set(n.name, pre);
      if (pre.failedPlugin !== undefined) unschedulablePlugins.add(pre.failedPlugin);
      return { feasible: [], statuses, unschedulablePlugins };
    }
    const numToFind = numFeasibleNodesToFind(all.length, this.percentageOfNodesToScore);
    const feasible: NodeInfo[] = [];
    const n = all.length;
    if (!fwk.hasFilterPlugins()) {
      for (let i = 0; i < numToFind; i++) feasible.push(all[(this.nextStartNodeIndex + i) % n]);
      this.nextStartNodeIndex = (this.nextStartNodeIndex + feasible.length) % n;
      return { feasible, statuses, unschedulablePlugins };
    }
    let processed = 0;
    for (let i = 0; i < n && feasible.length < numToFind; i++) {
      const ni = all[(this.nextStartNodeIndex + i) % n];
      processed++;
      const s = fwk.runFilterPluginsWithNominatedPods(state, pod, ni);
      if (s.isSuccess()) {
        feasible.push(ni);
        continue;
      }
      if (!s.isUnschedulable()) throw s.asError();
      statuses.set(ni.name, s);
      if (s.failedPlugin !== undefined) unschedulablePlugins.add(s.failedPlugin);
    }
    this.nextStartNodeIndex = (this.nextStartNodeIndex + processed) % n;
    return { feasible, statuses, unschedulablePlugins };
  }

  /** Highest total score wins; ties broken uniformly at random (reservoir sampling, as upstream). */
  selectHost(scores: readonly NodeScore[]): string {
    if (scores.length === 0) throw new Error('empty priorityList');
    let max = scores[0].score;
    let selected = scores[0].name;
    let count = 1;
    for (let i = 1; i < scores.length; i++) {
      const s = scores[i];
      if (s.score > max) {
        max = s.score;
        selected = s.name;
        count = 1;
      } else if (s.score === max) {
        count++;
        if (this.random(count) === 0) selected = s.name;
      }
    }
    return selected;
  }
}

/** PreScore + Score; with no score plugins every node scores 1, as upstream. */
export function prioritizeNodes(fwk: Framework, state: CycleState, pod: Pod, nodes: readonly NodeInfo[]): NodeScore[] {
  if (!fwk.hasScorePlugins()) return nodes.map((n) => ({ name: n.name, score: 1 }));
  const pre = fwk.runPreScorePlugins(state, pod, nodes);
  if (!pre.isSuccess()) throw pre.asError();
  const r = fwk.runScorePlugins(state, pod, nodes);
  if (!Array.isArray(r)) throw r.asError();
  return r;
}
