/**
 * NodePreferAvoidPods (Score, weight 10000 by default): a node whose `preferAvoidPods`
 * annotation names the controller (ReplicationController or ReplicaSet) of the pod scores 0,
 * every other node 100. The huge default weight makes the annotation all but a filter.
 */
import type { CycleState } from '../../framework/cycle-state.js';
import { ActionType } from '../../framework/events.js';
import type { FrameworkHandle } from '../../framework/handle.js';
import { MAX_NODE_SCORE, type ScorePlugin } from '../../framework/interfaces.js';
import type { NodeInfo } from '../../framework/node-info.js';
import type { PluginFactory } from '../../framework/registry.js';
import type { OwnerReference } from '../../../machinery/object.js';
import type { Node, Pod } from '../../framework/types.js';

export const NAME = 'NodePreferAvoidPods';

/** Upstream's PreferAvoidPodsAnnotationKey under a label domain. */
export function preferAvoidPodsAnnotationKey(labelDomain: string): string {
  return `scheduler.alpha.${labelDomain}/preferAvoidPods`;
}

interface Controller {
  kind: string;
  uid: string;
}

/** metav1.GetControllerOf: the owner reference marked controller, if any. */
function controllerOf(pod: Pod): OwnerReference | undefined {
  return pod.metadata.ownerReferences?.find((r) => r.controller === true);
}

// Parsed annotations per node object: nodes are immutable, so each is parsed once, not per pod.
// The annotation key is kept with the result because profiles of different brands may share nodes.
const parsed = new WeakMap<Node, { key: string; controllers: readonly Controller[] }>();

/** GetAvoidPodsFromNodeAnnotations' controllers; an unparsable annotation avoids nothing, as upstream. */
function avoidedControllers(node: Node, key: string): readonly Controller[] {
  const hit = parsed.get(node);
  if (hit !== undefined && hit.key === key) return hit.controllers;
  let controllers: Controller[] = [];
  const raw = node.metadata.annotations?.[key];
  if (raw !== undefined) {
    try {
      const v = JSON.parse(raw) as { preferAvoidPods?: { podSignature?: { podController?: { kind?: string; uid?: string } } }[] };
      controllers = (v.preferAvoidPods ?? []).map((a) => ({ kind: a.podSignature?.podController?.kind ?? '', uid: a.podSignature?.podController?.uid ?? '' }));
    } catch {
      controllers = [];
    }
  }
  parsed.set(node, { key, controllers });
  return controllers;
}

export class NodePreferAvoidPods implements ScorePlugin {
  readonly name = NAME;
  private readonly key: string;

  constructor(labelDomain: string) {
    this.key = preferAvoidPodsAnnotationKey(labelDomain);
  }

  score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): number {
    const node = nodeInfo.node;
    if (node === undefined) throw new Error('node not found');
    const ref = controllerOf(pod);
    // Only pods of ReplicationControllers and ReplicaSets are ever avoided.
    if (ref === undefined || (ref.kind !== 'ReplicationController' && ref.kind !== 'ReplicaSet')) return MAX_NODE_SCORE;
    for (const c of avoidedControllers(node, this.key)) if (c.kind === ref.kind && c.uid === ref.uid) return 0;
    return MAX_NODE_SCORE;
  }

  eventsToRegister() {
    return [{ resource: 'Node' as const, actionType: ActionType.Add | ActionType.Update, label: 'Node' }];
  }
}

export const factory: PluginFactory = (_args, handle: FrameworkHandle) => new NodePreferAvoidPods(handle.names.labelDomain);
