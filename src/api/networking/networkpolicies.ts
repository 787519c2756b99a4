/** NetworkPolicy. */
import { networking } from '../groups.js';

export const networkPolicies = networking({
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  shortNames: ['netpol'],
  namespaced: true,
  behaviour: { generation: true },
});
