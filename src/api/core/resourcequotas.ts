/** ResourceQuota. */
import { core } from '../groups.js';

export const resourceQuotas = core({
  kind: 'ResourceQuota',
  plural: 'resourcequotas',
  shortNames: ['quota'],
  namespaced: true,
  subresources: { status: true },
});
