/**
 * NodeUnschedulable (Filter): a cordoned node (spec.unschedulable) takes only pods tolerating
 * the `node.<domain>/unschedulable:NoSchedule` taint.
 */
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType } from '../../framework/events.js';
import type { FrameworkHandle } from '../../framework/handle.js';
import type { FilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { type Status, SUCCESS, unresolvable } from '../../framework/status.js';
import { tolerationsTolerateTaint } from '../../framework/taints.js';
import type { Pod, Taint } from '../../framework/types.js';

export const NAME = 'NodeUnschedulable';
export const ERR_REASON_UNKNOWN_CONDITION = 'node(s) had unknown conditions';
export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';

export class NodeUnschedulable implements FilterPlugin {
  readonly name = NAME;
  private readonly taint: Taint;

  constructor(unschedulableTaintKey: string) {
    this.taint = { key: unschedulableTaintKey, effect: 'NoSchedule' };
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    const node = nodeInfo.node;
    if (node === undefined) return unresolvable(ERR_REASON_UNKNOWN_CONDITION);
    if (node.spec?.unschedulable && !tolerationsTolerateTaint(pod.spec.tolerations, this.taint)) return unresolvable(ERR_REASON_UNSCHEDULABLE);
    return SUCCESS;
  }

  eventsToRegister() {
    return [{ resource: 'Node' as const, actionType: ActionType.Add | ActionType.UpdateNodeTaint, label: 'Node' }];
  }
}

export const factory: PluginFactory = (_args, h: FrameworkHandle) => new NodeUnschedulable(h.names.unschedulableTaint);
