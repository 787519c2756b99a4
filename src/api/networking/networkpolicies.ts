/** NetworkPolicy: ports default to TCP and policyTypes to Ingress (plus Egress with egress rules); upstream's validation. */
import { networking } from '../groups.js';
import { defaultNetworkPolicy, validateNetworkPolicy } from './network-policy-validation.js';

export const networkPolicies = networking({
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  shortNames: ['netpol'],
  namespaced: true,
  behaviour: { generation: true },
  strategy: { defaults: defaultNetworkPolicy, validate: validateNetworkPolicy, validateUpdate: validateNetworkPolicy },
});
