/**
 * StatefulSet: apps/v1 defaults (OrderedReady, RollingUpdate with partition 0, 1 replica, 10
 * revisions, the pod template's and claim templates' defaults), the fields of alpha features
 * (disabled in 1.25) dropped, and upstream's validation.
 */
import type { Obj } from '../../machinery/object.js';
import { child, childRecords, isSet, type Rec, rec, recOrNil, str } from '../../machinery/fields.js';
import { decodingDefaults } from '../core/decoding.js';
import { defaultPersistentVolumeClaim } from '../core/persistent-volume-defaults.js';
import { apps } from '../groups.js';
import type { Strategy } from '../types.js';
import { defaultWorkloadPodTemplate } from './pod-template.js';
import { validateStatefulSet, validateStatefulSetStatusUpdate, validateStatefulSetUpdate } from './statefulset-validation.js';
import { defaultIfEmpty, defaultIfUnset, resetStatus } from '../../machinery/defaulting.js';

/** Upstream's SetObjectDefaults_StatefulSet. */
function defaultStatefulSet(obj: Obj): void {
  const spec = child(obj, 'spec');
  defaultIfEmpty(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = child(spec, 'updateStrategy');
  if (str(strategy.type) === '') {
    strategy.type = 'RollingUpdate';
    child(strategy, 'rollingUpdate');
  }
  const ru = recOrNil(strategy.rollingUpdate);
  if (strategy.type === 'RollingUpdate' && ru !== undefined) defaultIfUnset(ru, 'partition', 0);
  defaultIfUnset(spec, 'replicas', 1);
  defaultIfUnset(spec, 'revisionHistoryLimit', 10);
  defaultWorkloadPodTemplate(spec);
  for (const claim of childRecords(spec, 'volumeClaimTemplates')) defaultPersistentVolumeClaim(claim);
}

/**
 * Fields of the StatefulSetAutoDeletePVC and MaxUnavailableStatefulSet gates (alpha, off in
 * 1.25) are dropped unless the stored object already uses them.
 */
function dropDisabledFields(spec: Rec, oldSpec: Rec | undefined): void {
  if (oldSpec === undefined || !isSet(oldSpec.persistentVolumeClaimRetentionPolicy)) delete spec.persistentVolumeClaimRetentionPolicy;
  const oldMaxUnavailable = rec(rec(oldSpec?.updateStrategy).rollingUpdate).maxUnavailable;
  const ru = recOrNil(rec(spec.updateStrategy).rollingUpdate);
  if (ru !== undefined && !isSet(oldMaxUnavailable)) delete ru.maxUnavailable;
}

const statefulSetStrategy: Strategy = {
  defaults: decodingDefaults(defaultStatefulSet),
  prepareForCreate(obj) {
    resetStatus(obj, { replicas: 0, availableReplicas: 0 });
    dropDisabledFields(child(obj, 'spec'), undefined);
  },
  prepareForUpdate(obj, old, ctx) {
    if (ctx.subresource === '') dropDisabledFields(child(obj, 'spec'), rec(old.spec));
  },
  validate: (obj) => validateStatefulSet(obj),
  validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? validateStatefulSetStatusUpdate(obj, old) : validateStatefulSetUpdate(obj, old)),
};

export const statefulSets = apps({
  kind: 'StatefulSet',
  plural: 'statefulsets',
  shortNames: ['sts'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true, scale: true },
  behaviour: { generation: true },
  strategy: statefulSetStrategy,
});
