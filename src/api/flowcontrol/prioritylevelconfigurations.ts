/** PriorityLevelConfiguration. */
import { flowcontrol } from '../groups.js';

export const priorityLevelConfigurations = flowcontrol({
  kind: 'PriorityLevelConfiguration',
  plural: 'prioritylevelconfigurations',
  namespaced: false,
  subresources: { status: true },
  behaviour: { generation: true },
});
