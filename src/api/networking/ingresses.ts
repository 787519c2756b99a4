/** Ingress (networking/v1): owns the `ingresses` storage that extensions/v1beta1 also serves. Upstream's validation. */
import { resetStatus } from '../../machinery/defaulting.js';
import { networking } from '../groups.js';
import { validateIngress, validateIngressUpdate } from './ingress-validation.js';

export const ingresses = networking({
  kind: 'Ingress',
  plural: 'ingresses',
  shortNames: ['ing'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
  strategy: {
    // IngressStatus.loadBalancer is a struct: the empty status serves as {loadBalancer: {}}.
    prepareForCreate: (obj) => resetStatus(obj, { loadBalancer: {} }),
    validate: (obj, ctx) => validateIngress(obj, ctx.brand),
    // Upstream's status strategy checks only the load balancer entries, which orch leaves unchecked.
    validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? [] : validateIngressUpdate(obj)),
  },
});
