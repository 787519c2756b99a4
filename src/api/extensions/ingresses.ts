/** Ingress (extensions/v1beta1): a view of networking's `ingresses` storage. */
import { extensions } from '../groups.js';
import { ingressConversion } from './ingress-conversion.js';

export const extensionsIngresses = extensions({
  kind: 'Ingress',
  plural: 'ingresses',
  shortNames: ['ing'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
  storage: { groupStem: 'networking', plural: 'ingresses', conversion: ingressConversion },
});
