/** FlowSchema: flowcontrol.apiserver v1beta2 (stored) and the deprecated v1beta1. */
import { apiGroup, type ResourceSpec } from '../define.js';
import { asVersionOf } from '../conversion/kind-conversion.js';
import { flowSchemaConversion, v1beta1Lifecycle } from './flowcontrol-conversion.js';

const SPEC: ResourceSpec = {
  kind: 'FlowSchema',
  plural: 'flowschemas',
  namespaced: false,
  subresources: { status: true },
  behaviour: { generation: true },
};

export const flowSchemas = asVersionOf(flowSchemaConversion, apiGroup('flowcontrol.apiserver', 'v1beta2')(SPEC));

export const flowSchemasV1beta1 = asVersionOf(
  flowSchemaConversion,
  apiGroup('flowcontrol.apiserver', 'v1beta1')({ ...SPEC, lifecycle: v1beta1Lifecycle('FlowSchema') }),
);
