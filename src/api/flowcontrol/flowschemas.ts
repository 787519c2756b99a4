/** FlowSchema. */
import { flowcontrol } from '../groups.js';

export const flowSchemas = flowcontrol({
  kind: 'FlowSchema',
  plural: 'flowschemas',
  namespaced: false,
  subresources: { status: true },
  behaviour: { generation: true },
});
