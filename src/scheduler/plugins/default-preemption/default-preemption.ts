/**
 * DefaultPreemption (PostFilter), upstream 1.21: when no node fits, find nodes where removing
 * lower-priority pods would let the pod fit (a dry run over a random window of candidate
 * nodes, PodDisruptionBudgets respected where possible), pick the cheapest, delete its
 * victims, clear lower-priority nominations there and return the node to nominate.
 */
import { MATH_RANDOM_INT, type RandomInt } from '../../framework/clock.js';
import type { CycleState } from '../../framework/cycle-state.js';
import { fitErrorMessage } from '../../framework/fit-error.js';
import type { FrameworkHandle, SchedulerClient } from '../../framework/handle.js';
import type { NodeToStatusMap, PostFilterPlugin, PostFilterResult } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { Code, errorStatus, SUCCESS, Status } from '../../framework/status.js';
import { type Pod, type PodCondition, type PodDisruptionBudget, podPriority, podUID } from '../../framework/types.js';
import { type Candidate, nodesWherePreemptionMightHelp, podEligibleToPreemptOthers, selectCandidate } from './candidates.js';
import { selectVictimsOnNode } from './victims.js';

export const NAME = 'DefaultPreemption';

/** DefaultPreemptionArgs of kubescheduler.config.orch.io/v1beta1. */
export interface DefaultPreemptionArgs {
  /** Candidates to dry-run, as a percentage of the nodes (default 10). */
  minCandidateNodesPercentage?: number;
  /** ...and at least this many (default 100). */
  minCandidateNodesAbsolute?: number;
}

export interface ResolvedPreemptionArgs {
  minCandidateNodesPercentage: number;
  minCandidateNodesAbsolute: number;
}

/** Upstream v1beta1 defaults and ValidateDefaultPreemptionArgs; throws on invalid args. */
export function resolveArgs(args: DefaultPreemptionArgs | undefined): ResolvedPreemptionArgs {
  const pct = args?.minCandidateNodesPercentage ?? 10;
  const abs = args?.minCandidateNodesAbsolute ?? 100;
  const errs: string[] = [];
  if (!Number.isInteger(pct) || pct < 0 || pct > 100) errs.push(`minCandidateNodesPercentage: Invalid value: ${pct}: not in valid range [0, 100]`);
  if (!Number.isInteger(abs) || abs < 0) errs.push(`minCandidateNodesAbsolute: Invalid value: ${abs}: not in valid range [0, inf)`);
  if (pct === 0 && abs === 0)
    errs.push('minCandidateNodesPercentage: Invalid value: 0: both minCandidateNodesPercentage and minCandidateNodesAbsolute cannot be zero');
  if (errs.length > 0) throw new Error(`invalid DefaultPreemptionArgs: ${errs.join('; ')}`);
  return { minCandidateNodesPercentage: pct, minCandidateNodesAbsolute: abs };
}

export class DefaultPreemption implements PostFilterPlugin {
  readonly name = NAME;
  /** Source of the dry run's random start offset (upstream's rand.Int31n); tests replace it. */
  offsetRand: RandomInt = MATH_RANDOM_INT;

  constructor(
    private readonly fh: FrameworkHandle,
    readonly args: ResolvedPreemptionArgs = resolveArgs(undefined),
  ) {}

  async postFilter(state: CycleState, pod: Pod, m: NodeToStatusMap): Promise<PostFilterResult> {
    // Upstream counts every PostFilter run as an attempt, whatever its outcome.
    this.fh.metrics?.preemptionAttempt();
    const r = await this.preempt(state, pod, m);
    if (!r.status.isSuccess()) return { status: r.status };
    // Not eligible, or nothing selected.
    if (!r.nominatedNodeName) return { status: new Status(Code.Unschedulable) };
    return { status: SUCCESS, nominatedNodeName: r.nominatedNodeName };
  }

  /**
   * Upstream's preempt: the node name chosen ("" when the pod may not preempt), or a non-success
   * status (Unschedulable with a FitError message when no candidate exists).
   */
  async preempt(state: CycleState, pod: Pod, m: NodeToStatusMap): Promise<{ nominatedNodeName: string; status: Status }> {
    const name = pod.metadata.name ?? '';
    // The informer's copy: status.nominatedNodeName may have changed since the pod was queued.
    const latest = this.fh.listers.pods.get(name, pod.metadata.namespace);
    if (latest === undefined) return { nominatedNodeName: '', status: errorStatus(`pods "${name}" not found`) };
    pod = latest;
    const nodeLister = this.fh.snapshotSharedLister();
    if (!podEligibleToPreemptOthers(pod, nodeLister, m.get(pod.status?.nominatedNodeName ?? ''))) return { nominatedNodeName: '', status: SUCCESS };
    const found = await this.findCandidates(state, pod, m);
    if (found.status !== undefined) return { nominatedNodeName: '', status: found.status };
    if (found.candidates.length === 0) {
      return { nominatedNodeName: '', status: new Status(Code.Unschedulable, [fitErrorMessage(found.statuses.size, found.statuses)]) };
    }
    const best = selectCandidate(found.candidates, this.fh.clock.now());
    if (best === undefined || best.name === '') return { nominatedNodeName: '', status: SUCCESS };
    this.fh.metrics?.preemptionVictims(best.victims.pods.length);
    const prepared = await this.prepareCandidate(best, pod);
    if (!prepared.isSuccess()) return { nominatedNodeName: '', status: prepared };
    return { nominatedNodeName: best.name, status: SUCCESS };
  }

  /** Upstream's calculateNumCandidates: percentage of nodes, at least the absolute, at most all. */
  calculateNumCandidates(numNodes: number): number {
    let n = Math.trunc((numNodes * this.args.minCandidateNodesPercentage) / 100);
    if (n < this.args.minCandidateNodesAbsolute) n = this.args.minCandidateNodesAbsolute;
    if (n > numNodes) n = numNodes;
    return n;
  }

  /** A random start offset and the number of candidates to look for. */
  getOffsetAndNumCandidates(numNodes: number): { offset: number; numCandidates: number } {
    return { offset: this.offsetRand(numNodes), numCandidates: this.calculateNumCandidates(numNodes) };
  }

  /** Candidates from a dry run over the nodes where preemption might help, and every other node's status. */
  async findCandidates(state: CycleState, pod: Pod, m: NodeToStatusMap): Promise<{ candidates: Candidate[]; statuses: NodeToStatusMap; status?: Status }> {
    const all = this.fh.snapshotSharedLister().list();
    if (all.length === 0) return { candidates: [], statuses: new Map(), status: errorStatus('no nodes available') };
    const { potential, statuses: unresolvable } = nodesWherePreemptionMightHelp(all, m);
    if (potential.length === 0) {
      // Nothing to gain anywhere: drop a stale nomination.
      await clearNominatedNodeName(this.fh.client, pod);
      return { candidates: [], statuses: unresolvable };
    }
    const pdbs = this.fh.listers.podDisruptionBudgets.list();
    const { offset, numCandidates } = this.getOffsetAndNumCandidates(potential.length);
    const { candidates, statuses } = this.dryRunPreemption(state, pod, potential, pdbs, offset, numCandidates);
    for (const [n, s] of unresolvable) statuses.set(n, s);
    return { candidates, statuses };
  }

  /**
   * Upstream's dryRunPreemption with parallelism 1: nodes from `offset` on, wrapping, until
   * numCandidates are found and at least one violates no PDB; each list holds at most
   * numCandidates. Non-violating candidates come first.
   */
  dryRunPreemption(
    state: CycleState,
    pod: Pod,
    potential: readonly NodeInfo[],
    pdbs: readonly PodDisruptionBudget[],
    offset: number,
    numCandidates: number,
  ): { candidates: Candidate[]; statuses: NodeToStatusMap } {
    const nonViolating: Candidate[] = [];
    const violating: Candidate[] = [];
    const statuses: NodeToStatusMap = new Map();
    const n = potential.length;
    for (let i = 0; i < n; i++) {
      const ni = potential[(offset + i) % n].clone();
      const r = selectVictimsOnNode(this.fh, state.clone(), pod, ni, pdbs);
      if (!r.status.isSuccess() || r.victims === undefined) {
        statuses.set(ni.name, r.status);
        continue;
      }
      const list = r.victims.numPDBViolations === 0 ? nonViolating : violating;
      if (list.length < numCandidates) list.push({ name: ni.name, victims: r.victims });
      if (nonViolating.length > 0 && nonViolating.length + violating.length >= numCandidates) break;
    }
    return { candidates: [...nonViolating, ...violating], statuses };
  }

  /**
   * Upstream's PrepareCandidate: delete the victims (rejecting those waiting at Permit), record
   * Preempted events, and clear the nominations of lower-priority pods on the node.
   */
  async prepareCandidate(c: Candidate, pod: Pod): Promise<Status> {
    const who = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    for (const victim of c.victims.pods) {
      try {
        await this.fh.client.deletePod(victim);
      } catch (e) {
        return errorStatus(e);
      }
      this.fh.getWaitingPod(podUID(victim))?.reject(NAME, 'preempted');
      this.fh.eventRecorder.event(victim, 'Normal', 'Preempted', 'Preempting', `Preempted by ${who} on node ${c.name}`, pod);
    }
    // They may no longer fit there; cleared, they go back to the active queue to look elsewhere.
    const priority = podPriority(pod);
    const lower = this.fh.nominator.nominatedPodsForNode(c.name).filter((pi) => pi.priority < priority);
    for (const pi of lower) {
      this.fh.nominator.deleteNominatedPodIfExists(pi.pod);
      await clearNominatedNodeName(this.fh.client, this.fh.listers.pods.get(pi.pod.metadata.name ?? '', pi.pod.metadata.namespace) ?? pi.pod);
    }
    return SUCCESS;
  }
}

/** Upstream's ClearNominatedNodeName: status.nominatedNodeName set to "" when set; failures ignored. */
async function clearNominatedNodeName(client: SchedulerClient, pod: Pod): Promise<void> {
  if (!pod.status?.nominatedNodeName) return;
  const cond: PodCondition = pod.status.conditions?.find((c) => c.type === 'PodScheduled') ?? {
    type: 'PodScheduled',
    status: 'False',
    reason: 'Unschedulable',
  };
  try {
    await client.updatePodStatus(pod, cond, '');
  } catch {
    // Not critical: the nomination is only a hint.
  }
}

export const factory: PluginFactory = (args, h) => new DefaultPreemption(h, resolveArgs(args as DefaultPreemptionArgs | undefined));
