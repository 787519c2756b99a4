/** EndpointSlice. */
import { discovery } from '../groups.js';

export const endpointSlices = discovery({
  kind: 'EndpointSlice',
  plural: 'endpointslices',
  namespaced: true,
  behaviour: { generation: true },
});
