/** CustomResourceDefinition; the server's CRD controller serves what each one defines (server/crd). */
import { apiextensions } from '../groups.js';
import { customResourceDefinitionStrategy } from './crd-validation.js';

export const customResourceDefinitions = apiextensions({
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  namespaced: false,
  subresources: { status: true },
  // Its cleanup finalizer is a plain qualified name, which upstream checks only for core types.
  behaviour: { generation: true, anyFinalizerNames: true },
  strategy: customResourceDefinitionStrategy,
});
