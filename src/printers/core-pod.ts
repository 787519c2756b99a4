/**
 * Pods, as upstream's printPod: READY counts ready running containers, STATUS is the phase
 * refined by init-container progress, container waiting/terminated reasons and deletion, and
 * RESTARTS says when the last container restart happened ("5 (3m ago)").
 */
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column, wide } from './columns.js';
import { CORE_V1 } from './descriptions.js';
import { humanDuration, timestampMillis } from './duration.js';
import { boolAt, isSetAt, listAt, numAt, strAt, valueAt } from '../machinery/fields.js';
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
  summary.restarts += numAt(status, 'restartCount');
  if (!isSetAt(status, 'lastState.terminated')) return;
  const finished = timestampMillis(valueAt(status, 'lastState.terminated.finishedAt')) ?? Number.NEGATIVE_INFINITY;
  if (summary.lastRestart < finished) summary.lastRestart = finished;
}

/** The reason of a failed termination: its reason, else its signal or exit code. */
function terminatedReason(terminated: unknown, prefix: string): string {
  const reason = strAt(terminated, 'reason');
  if (reason !== '') return prefix + reason;
  const signal = numAt(terminated, 'signal');
  return signal !== 0 ? `${prefix}Signal:${signal}` : `${prefix}ExitCode:${numAt(terminated, 'exitCode')}`;
}

/** Walks init containers until the first one not done; returns whether the pod is initializing. */
function summarizeInit(pod: Obj, summary: ContainerSummary): boolean {
  const statuses = listAt(pod, 'status.initContainerStatuses');
  const total = listAt(pod, 'spec.initContainers').length;
  for (let i = 0; i < statuses.length; i++) {
    const status = statuses[i];
    noteRestart(summary, status);
    const terminated = isSetAt(status, 'state.terminated') ? valueAt(status, 'state.terminated') : undefined;
    const waitingReason = strAt(status, 'state.waiting.reason');
    if (terminated !== undefined && numAt(terminated, 'exitCode') === 0) continue;
    if (terminated !== undefined) summary.reason = terminatedReason(terminated, 'Init:');
    else if (isSetAt(status, 'state.waiting') && waitingReason !== '' && waitingReason !== 'PodInitializing') summary.reason = `Init:${waitingReason}`;
    else summary.reason = `Init:${i}/${total}`;
    return true;
  }
  return false;
}

function hasPodReadyCondition(pod: Obj): boolean {
  return listAt(pod, 'status.conditions').some((c) => strAt(c, 'type') === 'Ready' && strAt(c, 'status') === 'True');
}

/** Walks app containers last to first, so the first container's reason wins. */
function summarizeContainers(pod: Obj, summary: ContainerSummary): void {
  summary.restarts = 0;
  let hasRunning = false;
  const statuses = listAt(pod, 'status.containerStatuses');
  for (let i = statuses.length - 1; i >= 0; i--) {
    const status = statuses[i];
    noteRestart(summary, status);
    const waitingReason = strAt(status, 'state.waiting.reason');
    const terminatedReasonText = strAt(status, 'state.terminated.reason');
    if (isSetAt(status, 'state.waiting') && waitingReason !== '') summary.reason = waitingReason;
    else if (isSetAt(status, 'state.terminated') && terminatedReasonText !== '') summary.reason = terminatedReasonText;
    else if (isSetAt(status, 'state.terminated')) summary.reason = terminatedReason(valueAt(status, 'state.terminated'), '');
    else if (boolAt(status, 'ready') && isSetAt(status, 'state.running')) {
      hasRunning = true;
      summary.ready++;
    }
  }
  // A pod whose last container completed while another still runs is not Completed.
  if (summary.reason === 'Completed' && hasRunning) summary.reason = hasPodReadyCondition(pod) ? 'Running' : 'NotReady';
}

function summarize(pod: Obj): ContainerSummary {
  const phase = strAt(pod, 'status.phase');
  const summary: ContainerSummary = { reason: strAt(pod, 'status.reason') || phase, restarts: 0, ready: 0, lastRestart: Number.NEGATIVE_INFINITY };
  if (!summarizeInit(pod, summary)) summarizeContainers(pod, summary);
  if (isDeleting(pod)) summary.reason = strAt(pod, 'status.reason') === NODE_UNREACHABLE_POD_REASON ? 'Unknown' : 'Terminating';
  return summary;
}

/** The pod's first IP; status.podIP wins over podIPs as upstream's v1 conversion decides. */
function podIP(pod: Obj): string {
  return strAt(pod, 'status.podIP') || strAt(listAt(pod, 'status.podIPs')[0], 'ip');
}

/** "<true>/<total>" of the readiness gates' conditions, "<none>" without gates. */
function readinessGates(pod: Obj): string {
  const gates = listAt(pod, 'spec.readinessGates');
  if (gates.length === 0) return '<none>';
  const conditions = listAt(pod, 'status.conditions');
  let trueConditions = 0;
  for (const gate of gates) {
    const condition = conditions.find((c) => strAt(c, 'type') === strAt(gate, 'conditionType'));
    if (condition !== undefined && strAt(condition, 'status') === 'True') trueConditions++;
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
    const total = listAt(pod, 'spec.containers').length;
    return [
      [
        nameOf(pod),
        `${s.ready}/${total}`,
        s.reason,
        restarts,
        ageOf(pod, now),
        podIP(pod) || '<none>',
        strAt(pod, 'spec.nodeName') || '<none>',
        strAt(pod, 'status.nominatedNodeName') || '<none>',
        readinessGates(pod),
      ],
    ];
  },
  conditions(pod) {
    const phase = strAt(pod, 'status.phase');
    if (phase === 'Succeeded') return SUCCEEDED;
    if (phase === 'Failed') return FAILED;
    return undefined;
  },
};
