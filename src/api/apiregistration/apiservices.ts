/** APIService: its name must be `<version>.<group>`, a check on the spec (path segment here). */
import { apiregistration } from '../groups.js';

export const apiServices = apiregistration({
  kind: 'APIService',
  plural: 'apiservices',
  categories: ['api-extensions'],
  namespaced: false,
  subresources: { status: true },
  nameRule: 'path-segment',
});
