/** APIService: its name must be `<version>.<group>` (apiservice-validation.ts), a path segment here. */
import { apiregistration } from '../groups.js';
import { defaultAPIService, validateAPIService } from './apiservice-validation.js';

export const apiServices = apiregistration({
  kind: 'APIService',
  plural: 'apiservices',
  categories: ['api-extensions'],
  namespaced: false,
  subresources: { status: true },
  nameRule: 'path-segment',
  strategy: {
    defaults: defaultAPIService,
    validate: validateAPIService,
    validateUpdate: validateAPIService,
  },
});
