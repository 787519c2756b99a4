/** NodeName (Filter): a pod with spec.nodeName fits only the node of that name. */
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType } from '../../framework/events.js';
import type { FilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { errorStatus, type Status, SUCCESS, unresolvable } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';

export const NAME = 'NodeName';
export const ERR_REASON = "node(s) didn't match the requested hostname";

export class NodeName implements FilterPlugin {
  readonly name = NAME;

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status {
    if (nodeInfo.node === undefined) return errorStatus('node not found');
    if (!pod.spec.nodeName || pod.spec.nodeName === nodeInfo.name) return SUCCESS;
    return unresolvable(ERR_REASON);
  }

  eventsToRegister() {
    return [{ resource: 'Node' as const, actionType: ActionType.Add, label: 'NodeAdd' }];
  }
}

export const factory: PluginFactory = () => new NodeName();
