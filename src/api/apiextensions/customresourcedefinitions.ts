/** CustomResourceDefinition. */
import { apiextensions } from '../groups.js';

export const customResourceDefinitions = apiextensions({
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  namespaced: false,
  subresources: { status: true },
  behaviour: { generation: true },
});
