/** Service: names are DNS-1035 labels (they become DNS names and environment variables). */
import { core } from '../groups.js';

export const services = core({
  kind: 'Service',
  plural: 'services',
  shortNames: ['svc'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  nameRule: 'dns1035',
});
