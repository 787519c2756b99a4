/** ResourceQuota: quota resource names and values, scopes that never change. */
import { core } from '../groups.js';
import { decodingDefaults } from './decoding.js';
import { defaultResourceQuota, validateResourceQuota, validateResourceQuotaStatusUpdate, validateResourceQuotaUpdate } from './resource-quota-validation.js';

export const resourceQuotas = core({
  kind: 'ResourceQuota',
  plural: 'resourcequotas',
  shortNames: ['quota'],
  namespaced: true,
  subresources: { status: true },
  strategy: {
    defaults: decodingDefaults(defaultResourceQuota),
    validate: (obj) => validateResourceQuota(obj),
    validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? validateResourceQuotaStatusUpdate(obj) : validateResourceQuotaUpdate(obj, old)),
  },
});
