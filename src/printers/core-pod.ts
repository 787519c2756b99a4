/**
 * Pods, as upstream's printPod: READY counts ready running containers, STATUS is the phase
 * refined by init-container progress, container waiting/terminated reasons and deletion, and
 * RESTARTS says when the last container restart happened ("5 (3m ago)").
 */
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column, wide } from './columns.js';
import { CORE_V1 } from './descriptions.js';
import { humanDuration, timestampMillis } from './duration.js';
import { at, bool, has, int, list, str } from './fields.js';
import { ageOf, isDeleting, nameOf } from './format.js';
import type { TablePrinter, TableRowCondition } from './types.js';

/** The pod status reason the node controller sets on pods of an unreachable node. */
const NODE_UNREACHABLE_POD_REASON = 'NodeLost';

const SUCCEEDED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
const FAILED: TableRowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

/** What the container statuses add up to: the reason shown, restarts and the last restart. */
interface ContainerSummary {
  reason: string;
  restarts: number;
  ready: number;
  /** Milliseconds of the latest lastState.terminated.finishedAt; -Infinity for none. */
  lastRestart: number;
}

/** Takes a container's last termination into account for the "(… ago)" of RESTARTS. */
function noteRestart(summary: ContainerSummary, status: unknown): void {
  summary.restarts += int(status, 'restartCount');
  if (!has(status, 'lastState.terminated')) return;
  const finished = timestampMillis(at(status, 'lastState.terminated.finishedAt')) ?? Number.NEGATIVE_INFINITY;
  if (summary.lastRestart < finished) summary.lastRestart = finished;
}

/** The reason of a failed termination: its reason, else its signal or exit code. */
function terminatedReason(terminated: unknown, prefix: string): string {
  const reason = str(terminated, 'reason');
  if (reason !== '') return prefix + reason;
  const signal = int(terminated, 'signal');
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${int(terminated, 'exitCode')}`;
}

/** Walks init containers until the first one not done; returns whether the pod is initializing. */
function summarizeInit(pod: Obj, summary: ContainerSummary): boolean {
  const statuses = list(pod, 'status.initContainerStatuses');
  const total = list(pod, 'spec.initContainers').length;
  for (let i = 0; i < statuses.length; i++) {
    const status = statuses[i];
    noteRestart(summary, status);
    const terminated = has(status, 'state.terminated') ? at(status, 'state.terminated') : undefined;
    const waitingReason = str(status, 'state.waiting.reason');
    if (terminated !== undefined && int(terminated, 'exitCode') === 0) continue;
    if (terminated !== undefined) summary.reason = terminatedReason(terminated, 'Init:');
    else if (has(status, 'state.waiting') && waitingReason !== '' && waitingReason !== 'PodInitializing') summary.reason = `Init:${waitingReason}`;
    else summary.reason = `Init:${i}/${total}`;
    return true;
  }
  return false;
}

function hasPodReadyCondition(pod: Obj): boolean {
  return list(pod, 'status.conditions').some((c) => str(c, 'type') === 'Ready' && str(c, 'status') === 'True');
}

/** Walks app containers last to first, so the first container's reason wins. */
function summarizeContainers(pod: Obj, summary: ContainerSummary): void {
  summary.restarts = 0;
  let hasRunning = false;
  const statuses = list(pod, 'status.containerStatuses');
  for (let i = statuses.length - 1; i >= 0; i--) {
    const status = statuses[i];
    noteRestart(summary, status);
    const waitingReason = str(status, 'state.waiting.reason');
    const terminatedReasonText = str(status, 'state.terminated.reason');
    if (has(status, 'state.waiting') && waitingReason !== '') summary.reason = waitingReason;
    else if (has(status, 'state.terminated') && terminatedReasonText !== '') summary.reason = terminatedReasonText;
    else if (has(status, 'state.terminated')) summary.reason = terminatedReason(at(status, 'state.terminated'), '');
    else if (bool(status, 'ready') && has(status, 'state.running')) {
      hasRunning = true;
      summary.ready++;
    }
  }
  // A pod whose last container completed while another still runs is not Completed.
  if (summary.reason === 'Completed' && hasRunning) summary.reason = hasPodReadyCondition(pod) ? 'Running' : 'NotReady';
}

function summarize(pod: Obj): ContainerSummary {
  const phase = str(pod, 'status.phase');
  const summary: ContainerSummary = { reason: str(pod, 'status.reason') || phase, restarts: 0, ready: 0, lastRestart: Number.NEGATIVE_INFINITY };
  if (!summarizeInit(pod, summary)) summarizeContainers(pod, summary);
  if (isDeleting(pod)) summary.reason = str(pod, 'status.reason') === NODE_UNREACHABLE_POD_REASON ? 'Unknown' : 'Terminating';
  return summary;
}

/** The pod's first IP; status.podIP wins over podIPs as upstream's v1 conversion decides. */
function podIP(pod: Obj): string {
  return str(pod, 'status.podIP') || str(list(pod, 'status.podIPs')[0], 'ip');
}

/** "<true>/<total>" of the readiness gates' conditions, "<none>" without gates. */
function readinessGates(pod: Obj): string {
  const gates = list(pod, 'spec.readinessGates');
  if (gates.length === 0) return '<none>';
  const conditions = list(pod, 'status.conditions');
  let trueConditions = 0;
  for (const gate of gates) {
    const condition = conditions.find((c) => str(c, 'type') === str(gate, 'conditionType'));
    if (condition !== undefined && str(condition, 'status') === 'True') trueConditions++;
  }
  return `${trueConditions}/${gates.length}`;
}

export const podPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    AGE_COLUMN,
    wide('IP', 'string', CORE_V1['PodStatus.podIP']),
    wide('Node', 'string', CORE_V1['PodSpec.nodeName']),
    wide('Nominated Node', 'string', CORE_V1['PodStatus.nominatedNodeName']),
    wide('Readiness Gates', 'string', CORE_V1['PodSpec.readinessGates']),
  ],
  rows(pod, now) {
    const s = summarize(pod);
    const restarts = s.lastRestart === Number.NEGATIVE_INFINITY ? String(s.restarts) : `${s.restarts} (${humanDuration(now.getTime() - s.lastRestart)} ago)`;
    const total = list(pod, 'spec.containers').length;
    return [
      [
        nameOf(pod),
        `${s.ready}/${total}`,
        s.reason,
        restarts,
        ageOf(pod, now),
        podIP(pod) || '<none>',
        str(pod, 'spec.nodeName') || '<none>',
        str(pod, 'status.nominatedNodeName') || '<none>',
        readinessGates(pod),
      ],
    ];
  },
  conditions(pod) {
    const phase = str(pod, 'status.phase');
    if (phase === 'Succeeded') return SUCCEEDED;
    if (phase === 'Failed') return FAILED;
    return undefined;
  },
};
