/** PodSecurityPolicy: served only at policy/v1beta1 (removed upstream in 1.25). */
import { policy } from '../groups.js';

export const podSecurityPolicies = policy({
  version: 'v1beta1',
  kind: 'PodSecurityPolicy',
  plural: 'podsecuritypolicies',
  shortNames: ['psp'],
  namespaced: false,
});
