/**
 * NodeLabel (Filter, Score; off by default, deprecated upstream): nodes must have every label of
 * presentLabels and none of absentLabels; they score by the share of preference labels they
 * satisfy. Only label keys are compared, never values.
 */
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType } from '../../framework/events.js';
import { type FilterPlugin, MAX_NODE_SCORE, type ScorePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { errorStatus, type Status, SUCCESS, unresolvable } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';

export const NAME = 'NodeLabel';
export const ERR_REASON_PRESENCE_VIOLATED = "node(s) didn't have the requested labels";

/** NodeLabelArgs (v1beta1). */
export interface NodeLabelArgs {
  presentLabels?: string[];
  absentLabels?: string[];
  presentLabelsPreference?: string[];
  absentLabelsPreference?: string[];
}

/** Upstream's validateNoConflict: a label may not be both required present and absent. */
function conflicts(present: readonly string[], absent: readonly string[], presentPath: string, absentPath: string): string[] {
  // The last index wins for a repeated label, as upstream's map.
  const index = new Map(present.map((l, i) => [l, i]));
  const errs: string[] = [];
  absent.forEach((l, i) => {
    const j = index.get(l);
    if (j !== undefined) errs.push(`${presentPath}[${j}]: Invalid value: ${JSON.stringify(l)}: conflict with ${absentPath}[${i}]`);
  });
  return errs;
}

/** Upstream's ValidateNodeLabelArgs; throws the aggregated message. */
export function validateNodeLabelArgs(a: NodeLabelArgs): void {
  const errs = [
    ...conflicts(a.presentLabels ?? [], a.absentLabels ?? [], 'presentLabels', 'absentLabels'),
    ...conflicts(a.presentLabelsPreference ?? [], a.absentLabelsPreference ?? [], 'presentLabelsPreference', 'absentLabelsPreference'),
  ];
  if (errs.length === 1) throw new Error(errs[0]);
  if (errs.length > 1) throw new Error(`[${errs.join(', ')}]`);
}

const has = (labels: Readonly<Record<string, string>> | undefined, key: string) => labels !== undefined && Object.hasOwn(labels, key);

export class NodeLabel implements FilterPlugin, ScorePlugin {
  readonly name = NAME;
  private readonly present: readonly string[];
  private readonly absent: readonly string[];
  private readonly presentPref: readonly string[];
  private readonly absentPref: readonly string[];

  constructor(args: NodeLabelArgs = {}) {
    validateNodeLabelArgs(args);
    this.present = args.presentLabels ?? [];
    this.absent = args.absentLabels ?? [];
    this.presentPref = args.presentLabelsPreference ?? [];
    this.absentPref = args.absentLabelsPreference ?? [];
  }

  filter(_state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status {
    const node = nodeInfo.node;
    if (node === undefined) return errorStatus('node not found');
    const labels = node.metadata.labels;
    for (const l of this.present) if (!has(labels, l)) return unresolvable(ERR_REASON_PRESENCE_VIOLATED);
    for (const l of this.absent) if (has(labels, l)) return unresolvable(ERR_REASON_PRESENCE_VIOLATED);
    return SUCCESS;
  }

  /** 100 per satisfied preference, averaged over all preferences so the sum stays within 0–100. */
  score(_state: CycleState, _pod: Pod, nodeInfo: NodeInfo): number {
    const node = nodeInfo.node;
    if (node === undefined) throw new Error(`getting node ${JSON.stringify(nodeInfo.name)} from Snapshot: node not found`);
    const size = this.presentPref.length + this.absentPref.length;
    if (size === 0) return 0;
    const labels = node.metadata.labels;
    let score = 0;
    for (const l of this.presentPref) if (has(labels, l)) score += MAX_NODE_SCORE;
    for (const l of this.absentPref) if (!has(labels, l)) score += MAX_NODE_SCORE;
    return Math.trunc(score / size);
  }

  eventsToRegister() {
    return [{ resource: 'Node' as const, actionType: ActionType.Add | ActionType.UpdateNodeLabel, label: 'Node' }];
  }
}

export const factory: PluginFactory = (args) => new NodeLabel((args ?? {}) as NodeLabelArgs);
