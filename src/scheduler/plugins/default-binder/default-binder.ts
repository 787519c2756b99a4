/** DefaultBinder (Bind): posts a core/v1 Binding through the handle's Binder. */
import type { CycleState } from '../../framework/cycle-state.js';
import type { Binder, FrameworkHandle } from '../../framework/handle.js';
import type { BindPlugin } from '../../framework/interfaces.js';
import type { PluginFactory } from '../../framework/registry.js';
import { errorStatus, type Status, SUCCESS } from '../../framework/status.js';
import type { Pod } from '../../framework/types.js';

export const NAME = 'DefaultBinder';

export class DefaultBinder implements BindPlugin {
  readonly name = NAME;

  constructor(private readonly binder: Binder) {}

  async bind(_state: CycleState, pod: Pod, nodeName: string): Promise<Status> {
    try {
      await this.binder.bind({
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { namespace: pod.metadata.namespace ?? '', name: pod.metadata.name ?? '', uid: pod.metadata.uid },
        target: { kind: 'Node', name: nodeName },
      });
      return SUCCESS;
    } catch (e) {
      return errorStatus(e);
    }
  }
}

export const factory: PluginFactory = (_args, h: FrameworkHandle) => new DefaultBinder(h.binder);
