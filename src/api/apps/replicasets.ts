/**
 * ReplicaSet: apps/v1 defaults (1 replica, the pod template's defaults) and upstream's
 * ValidateReplicaSet / ValidateReplicaSetStatusUpdate, with the apps/v1 immutable selector.
 */
import type { Obj } from '../../machinery/object.js';
import type { FieldError } from '../../machinery/status.js';
import { child, num, rec } from '../../machinery/fields.js';
import { decodingDefaults } from '../core/decoding.js';
import { validateNonnegativeField } from '../core/value-validation.js';
import { count } from '../define.js';
import { apps } from '../groups.js';
import type { Strategy } from '../types.js';
import { defaultWorkloadPodTemplate } from './pod-template.js';
import { replicaSetTemplateErrors } from './replica-set-template.js';
import { defaultIfUnset, resetStatus } from '../../machinery/defaulting.js';
import { boundedCounters, immutableSelectorErrors, labelSelectorOf, nonnegativeCounters, requiredSelectorErrors } from './workload-validation.js';

/** Upstream's ValidateReplicaSetSpec (its empty-selector message says "deployment", as upstream's does). */
export function validateReplicaSet(obj: Obj): FieldError[] {
  const spec = rec(obj.spec);
  return [
    ...validateNonnegativeField(num(spec.replicas), 'spec.replicas'),
    ...validateNonnegativeField(num(spec.minReadySeconds), 'spec.minReadySeconds'),
    ...requiredSelectorErrors(spec.selector, 'spec.selector', 'deployment'),
    ...replicaSetTemplateErrors(spec, labelSelectorOf(spec.selector), 'spec'),
  ];
}

/** Upstream's ValidateReplicaSetStatus. */
export function validateReplicaSetStatus(obj: Obj): FieldError[] {
  const status = rec(obj.status);
  return [
    ...nonnegativeCounters(status, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'], 'status'),
    ...boundedCounters(status, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'], 'replicas', 'cannot be greater than status.replicas'),
    ...boundedCounters(status, ['availableReplicas'], 'readyReplicas', 'cannot be greater than readyReplicas'),
  ];
}

const replicaSetStrategy: Strategy = {
  defaults: decodingDefaults((obj) => {
    const spec = child(obj, 'spec');
    defaultIfUnset(spec, 'replicas', 1);
    defaultWorkloadPodTemplate(spec);
  }),
  prepareForCreate: (obj) => resetStatus(obj, { replicas: 0 }),
  validate: (obj) => validateReplicaSet(obj),
  validateUpdate: (obj, old, ctx) =>
    ctx.subresource === 'status' ? validateReplicaSetStatus(obj) : [...validateReplicaSet(obj), ...immutableSelectorErrors(rec(obj.spec), rec(old.spec))],
};

export const replicaSets = apps({
  kind: 'ReplicaSet',
  plural: 'replicasets',
  shortNames: ['rs'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true, scale: true },
  behaviour: { generation: true },
  strategy: replicaSetStrategy,
  fieldSelectors: { 'status.replicas': count('status.replicas') },
});
