/** PrioritySort (QueueSort): higher spec.priority first, then the earlier queue timestamp. */
import type { QueuedPodInfo, QueueSortPlugin } from '../../framework/interfaces.js';
import type { PluginFactory } from '../../framework/registry.js';

export const NAME = 'PrioritySort';

export class PrioritySort implements QueueSortPlugin {
  readonly name = NAME;

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const p1 = a.podInfo.priority;
    const p2 = b.podInfo.priority;
    return p1 > p2 || (p1 === p2 && a.timestamp < b.timestamp);
  }
}

export const factory: PluginFactory = () => new PrioritySort();
