/**
 * NodePorts (PreFilter, Filter): a pod asking for host ports fits only nodes where none of them
 * is taken, a wildcard host IP (0.0.0.0) clashing with every IP on the same protocol and port.
 */
import type { CycleState, StateData } from '../../framework/cycle-state.js';
import { StateKey } from '../../framework/cycle-state.js';
import { ActionType } from '../../framework/events.js';
import type { FilterPlugin, PreFilterPlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { HostPort } from '../../framework/pod-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import { errorStatus, SKIP, type Status, SUCCESS, unschedulable } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';

export const NAME = 'NodePorts';
export const ERR_REASON = "node(s) didn't have free ports for the requested pod ports";

class PreFilterState implements StateData {
  constructor(readonly ports: readonly HostPort[]) {}
  /** Immutable: preemption never changes the pod's own ports. */
  clone(): StateData {
    return this;
  }
}

const preFilterStateKey = new StateKey<PreFilterState>(`PreFilter${NAME}`);

/** The host ports of the pod's (non-init) containers, sanitized as upstream's HostPortInfo does. */
export function wantedPorts(pod: Pod): HostPort[] {
  const out: HostPort[] = [];
  for (const c of pod.spec.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort || p.hostPort <= 0) continue;
      out.push({ ip: p.hostIP || '0.0.0.0', protocol: p.protocol || 'TCP', port: p.hostPort });
    }
  }
  return out;
}

/** Upstream's fitsPorts: no wanted port conflicts with one in use on the node. */
export function fitsPorts(wanted: readonly HostPort[], nodeInfo: NodeInfo): boolean {
  for (const p of wanted) if (nodeInfo.usedPorts.conflicts(p)) return false;
  return true;
}

export class NodePorts implements PreFilterPlugin, FilterPlugin {
  readonly name = NAME;

  /** Skip for pods without host ports: upstream's Filter would pass every node for them anyway. */
  preFilter(state: CycleState, pod: Pod): Status {
    const ports = wantedPorts(pod);
    if (ports.length === 0) return SKIP;
    state.write(preFilterStateKey, new PreFilterState(ports));
    return SUCCESS;
  }

  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status {
    const s = state.read(preFilterStateKey);
    if (s === undefined) return errorStatus(`error reading "${preFilterStateKey.name}" from cycleState: not found`);
    return fitsPorts(s.ports, nodeInfo) ? SUCCESS : unschedulable(ERR_REASON);
  }

  eventsToRegister() {
    return [
      { resource: 'Pod' as const, actionType: ActionType.Delete, label: 'PodDelete' },
      { resource: 'Node' as const, actionType: ActionType.Add, label: 'NodeAdd' },
    ];
  }
}

export const factory: PluginFactory = () => new NodePorts();
