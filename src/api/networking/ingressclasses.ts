/** IngressClass. */
import { networking } from '../groups.js';

export const ingressClasses = networking({
  kind: 'IngressClass',
  plural: 'ingressclasses',
  namespaced: false,
  behaviour: { generation: true },
});
