/** The "no node fits" error and its FailedScheduling message, as upstream's FitError.Error(). */
import type { NodeToStatusMap } from './interfaces.js';
import type { Pod } from './types.js';

/** Why a pod fits nowhere: each failed node's status and the plugins that rejected it. */
export interface Diagnosis {
  nodeToStatusMap: NodeToStatusMap;
  unschedulablePlugins: Set<string>;
}

export class FitError extends Error {
  constructor(
    readonly pod: Pod,
    readonly numAllNodes: number,
    readonly diagnosis: Diagnosis,
  ) {
    super(fitErrorMessage(numAllNodes, diagnosis.nodeToStatusMap));
    this.name = 'FitError';
  }
}

/**
 * `0/N nodes are available: <count> <reason>, ....` Each reason of each node's status is
 * counted; the "<count> <reason>" strings are sorted as strings (Go's sort.Strings), so
 * "10 x" sorts before "2 y" exactly as upstream prints it.
 */
export function fitErrorMessage(numAllNodes: number, statuses: NodeToStatusMap): string {
  const counts = new Map<string, number>();
  for (const s of statuses.values()) for (const r of s.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const parts: string[] = [];
  for (const [reason, n] of counts) parts.push(`${n} ${reason}`);
  parts.sort(compareByteStrings);
  return `0/${numAllNodes} nodes are available: ${parts.join(', ')}.`;
}

// Go compares strings bytewise; UTF-16 order differs only for astral characters, which the
// reasons do not contain, but keep the comparison explicit rather than locale-dependent.
function compareByteStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
