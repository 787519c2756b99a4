/**
 * Service: names are DNS-1035 labels (they become DNS names and environment variables);
 * defaulted and validated as upstream's, with the cluster-IP and IP-family bookkeeping the
 * service REST does before validating. Cluster IPs are not allocated.
 */
import { core } from '../groups.js';
import type { Strategy, StrategyContext } from '../types.js';
import { child, isSet, list, rec } from '../../machinery/fields.js';
import { defaultIPFamilies, defaultService, normalizeClusterIPs, patchAllocatedValues } from './service-defaults.js';
import { validateService, validateServiceStatus, validateServiceUpdate } from './service-validation.js';

/** The annotation older clients use for load-balancer source ranges (service.beta.kubernetes.io/... upstream). */
function sourceRangesAnnotation(ctx: StrategyContext): string {
  return `service.beta.${ctx.brand.labelDomain}/load-balancer-source-ranges`;
}

const serviceStrategy: Strategy = {
  defaults: (obj) => defaultService(obj),
  prepareForCreate(obj) {
    const spec = child(obj, 'spec');
    normalizeClusterIPs(spec, undefined);
    defaultIPFamilies(spec);
  },
  prepareForUpdate(obj, old, ctx) {
    if (ctx.subresource !== '') return;
    const spec = child(obj, 'spec');
    const oldSpec = rec(old.spec);
    patchAllocatedValues(spec, oldSpec);
    normalizeClusterIPs(spec, oldSpec);
    // An update that leaves the IP-family fields out keeps the stored ones.
    if (spec.type !== 'ExternalName' && oldSpec.type !== 'ExternalName') {
      if (list(spec.ipFamilies).length === 0 && list(oldSpec.ipFamilies).length > 0) spec.ipFamilies = oldSpec.ipFamilies;
      if (!isSet(spec.ipFamilyPolicy) && isSet(oldSpec.ipFamilyPolicy)) spec.ipFamilyPolicy = oldSpec.ipFamilyPolicy;
    }
    defaultIPFamilies(spec);
  },
  validate: (obj, ctx) => validateService(obj, sourceRangesAnnotation(ctx)),
  validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? validateServiceStatus(obj) : validateServiceUpdate(obj, old, sourceRangesAnnotation(ctx))),
};

export const services = core({
  kind: 'Service',
  plural: 'services',
  shortNames: ['svc'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true, proxy: true },
  nameRule: 'dns1035',
  strategy: serviceStrategy,
});
