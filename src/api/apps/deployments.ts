/**
 * Deployment: apps/v1 defaults (1 replica, RollingUpdate 25%/25%, 10 revisions, 600 s progress
 * deadline, the pod template's defaults), upstream's validation, and a generation that also
 * moves when annotations change (they are copied to the ReplicaSets).
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import { metaOf } from '../../machinery/object.js';
import { child } from '../../machinery/fields.js';
import { decodingDefaults } from '../core/decoding.js';
import { apps } from '../groups.js';
import type { Strategy } from '../types.js';
import { validateDeployment, validateDeploymentStatusUpdate, validateDeploymentUpdate } from './deployment-validation.js';
import { defaultWorkloadPodTemplate } from './pod-template.js';
import { defaultIfUnset, resetStatus } from '../../machinery/defaulting.js';
import { defaultRollingUpdate } from './workload-defaults.js';

const deploymentStrategy: Strategy = {
  defaults: decodingDefaults((obj) => {
    const spec = child(obj, 'spec');
    defaultIfUnset(spec, 'replicas', 1);
    defaultRollingUpdate(child(spec, 'strategy'), '25%', '25%');
    defaultIfUnset(spec, 'revisionHistoryLimit', 10);
    defaultIfUnset(spec, 'progressDeadlineSeconds', 600);
    defaultWorkloadPodTemplate(spec);
  }),
  prepareForCreate: (obj) => resetStatus(obj),
  prepareForUpdate(obj, old, ctx) {
    if (ctx.subresource !== '') return;
    // Annotations are copied to the ReplicaSets, so a change to them is a new generation too.
    const meta = metaOf(obj);
    const oldMeta = metaOf(old);
    if (!deepEqual(meta.annotations ?? {}, oldMeta.annotations ?? {})) meta.generation = (oldMeta.generation ?? 0) + 1;
  },
  validate: (obj) => validateDeployment(obj),
  validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? validateDeploymentStatusUpdate(obj, old) : validateDeploymentUpdate(obj, old)),
};

export const deployments = apps({
  kind: 'Deployment',
  plural: 'deployments',
  shortNames: ['deploy'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true, scale: true },
  behaviour: { generation: true },
  strategy: deploymentStrategy,
});
