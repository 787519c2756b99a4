/**
 * ReplicationController: defaults (selector and labels from the template, one replica) and
 * validation as upstream's SetDefaults_ReplicationController and ValidateReplicationController.
 */
import { core } from '../groups.js';
import { count } from '../define.js';
import type { Obj } from '../../machinery/object.js';
import { labelSelectorFromSet } from '../../machinery/label-selector.js';
import { type FieldError, forbiddenField, invalid, notSupported, PrintedValue, required } from '../../machinery/status.js';
import type { Strategy } from '../types.js';
import { decodingDefaults } from './decoding.js';
import { child, isSet, num, type Rec, rec, strMap, str } from '../../machinery/fields.js';
import { defaultPodTemplateSpec } from './pod-defaults.js';
import { validatePodTemplateSpec } from './pod-validation.js';
import { validateNonnegativeField } from './value-validation.js';

function defaultReplicationController(rc: Obj): void {
  const spec = child(rc, 'spec');
  if (isSet(spec.template)) {
    const template = child(spec, 'template');
    const labels = strMap(rec(template.metadata).labels);
    if (labels !== undefined) {
      if (Object.keys(rec(spec.selector)).length === 0) spec.selector = { ...labels };
      const meta = child(rc as Rec, 'metadata');
      if (Object.keys(rec(meta.labels)).length === 0) meta.labels = { ...labels };
    }
    defaultPodTemplateSpec(template);
  }
  if (typeof spec.replicas !== 'number') spec.replicas = 1;
}

/** A string map as Go's %#v prints it (keys sorted). */
function goStringMap(m: Record<string, string> | undefined): PrintedValue {
  if (m === undefined) return new PrintedValue('map[string]string(nil)');
  const entries = Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`);
  return new PrintedValue(`map[string]string{${entries.join(', ')}}`);
}

/** Upstream's ValidateReplicationControllerSpec. */
function validateSpec(spec: Rec): FieldError[] {
  const errs = validateNonnegativeField(num(spec.minReadySeconds), 'spec.minReadySeconds');
  const selector = strMap(spec.selector) ?? {};
  if (Object.keys(selector).length === 0) errs.push(required('spec.selector', ''));
  errs.push(...validateNonnegativeField(num(spec.replicas), 'spec.replicas'));
  if (!isSet(spec.template)) {
    errs.push(required('spec.template', ''));
    return errs;
  }
  const template = rec(spec.template);
  const labels = strMap(rec(template.metadata).labels);
  if (Object.keys(selector).length > 0 && !labelSelectorFromSet(selector)(labels ?? {})) {
    errs.push(invalid('spec.template.metadata.labels', goStringMap(labels), '`selector` does not match template `labels`'));
  }
  errs.push(...validatePodTemplateSpec(template, 'spec.template'));
  const templateSpec = rec(template.spec);
  if (str(templateSpec.restartPolicy) !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', str(templateSpec.restartPolicy), ['Always']));
  if (isSet(templateSpec.activeDeadlineSeconds)) {
    errs.push(forbiddenField('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

/** Upstream's ValidateReplicationControllerStatus. */
function validateStatus(status: Rec): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) {
    errs.push(...validateNonnegativeField(num(status[key]), `status.${key}`));
  }
  const replicas = num(status.replicas);
  for (const key of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas']) {
    if (num(status[key]) > replicas) errs.push(invalid(`status.${key}`, num(status[key]), 'cannot be greater than status.replicas'));
  }
  if (num(status.availableReplicas) > num(status.readyReplicas)) {
    errs.push(invalid('status.availableReplicas', num(status.availableReplicas), 'cannot be greater than readyReplicas'));
  }
  return errs;
}

const strategy: Strategy = {
  defaults: decodingDefaults(defaultReplicationController),
  validate: (obj) => validateSpec(rec(obj.spec)),
  validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? validateStatus(rec(obj.status)) : validateSpec(rec(obj.spec))),
  // Upstream keeps v1's original behaviour for ReplicationControllers: their pods are orphaned.
  orphanDependentsByDefault: true,
};

export const replicationControllers = core({
  kind: 'ReplicationController',
  plural: 'replicationcontrollers',
  shortNames: ['rc'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true, scale: true },
  behaviour: { generation: true },
  strategy,
  fieldSelectors: { 'status.replicas': count('status.replicas') },
});
