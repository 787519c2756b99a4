/**
 * flowcontrol.apiserver v1beta1 <-> v1beta2 (the storage version in 1.25). v1beta2 began as a
 * copy of v1beta1 and 1.25 changed neither, so an object converts by its apiVersion alone.
 */
import { hubAndSpokes, type Spoke } from '../conversion/kind-conversion.js';
import type { ApiLifecycle } from '../types.js';

const SAME_FIELDS: Spoke = { toHub: (obj) => obj, fromHub: (obj) => obj };

export const flowSchemaConversion = hubAndSpokes('flowcontrol.apiserver', true, 'FlowSchema', 'v1beta2', { v1beta1: SAME_FIELDS });

export const priorityLevelConfigurationConversion = hubAndSpokes('flowcontrol.apiserver', true, 'PriorityLevelConfiguration', 'v1beta2', {
  v1beta1: SAME_FIELDS,
});

/** v1beta1's generated lifecycle in 1.25: deprecated 1.23, removed 1.26, replaced by v1beta2. */
export function v1beta1Lifecycle(kind: string): ApiLifecycle {
  return { deprecated: '1.23', removed: '1.26', replacement: { groupStem: 'flowcontrol.apiserver', branded: true, version: 'v1beta2', kind } };
}
