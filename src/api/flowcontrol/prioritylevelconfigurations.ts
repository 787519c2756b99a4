/** PriorityLevelConfiguration: flowcontrol.apiserver v1beta2 (stored) and the deprecated v1beta1. */
import { apiGroup, type ResourceSpec } from '../define.js';
import { asVersionOf } from '../conversion/kind-conversion.js';
import { priorityLevelConfigurationConversion, v1beta1Lifecycle } from './flowcontrol-conversion.js';

const SPEC: ResourceSpec = {
  kind: 'PriorityLevelConfiguration',
  plural: 'prioritylevelconfigurations',
  namespaced: false,
  subresources: { status: true },
  behaviour: { generation: true },
};

export const priorityLevelConfigurations = asVersionOf(priorityLevelConfigurationConversion, apiGroup('flowcontrol.apiserver', 'v1beta2')(SPEC));

export const priorityLevelConfigurationsV1beta1 = asVersionOf(
  priorityLevelConfigurationConversion,
  apiGroup('flowcontrol.apiserver', 'v1beta1')({ ...SPEC, lifecycle: v1beta1Lifecycle('PriorityLevelConfiguration') }),
);
