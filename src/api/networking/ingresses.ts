/** Ingress (networking/v1): owns the `ingresses` storage that extensions/v1beta1 also serves. */
import { networking } from '../groups.js';

export const ingresses = networking({
  kind: 'Ingress',
  plural: 'ingresses',
  shortNames: ['ing'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
});
