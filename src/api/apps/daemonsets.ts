/**
 * DaemonSet: apps/v1 defaults (RollingUpdate with maxUnavailable 1 and maxSurge 0, 10 revisions,
 * the pod template's defaults), the template generation (1 on create, one more whenever the
 * template changes), and upstream's validation.
 */
import type { Obj } from '../../machinery/object.js';
import { semanticEqual } from '../core/semantic.js';
import { child, rec } from '../../machinery/fields.js';
import { decodingDefaults } from '../core/decoding.js';
import { apps } from '../groups.js';
import type { Strategy } from '../types.js';
import { validateDaemonSet, validateDaemonSetStatusUpdate, validateDaemonSetUpdate } from './daemonset-validation.js';
import { defaultWorkloadPodTemplate } from './pod-template.js';
import { checkTemplateGeneration, setTemplateGeneration, templateGenerationOf } from './template-generation.js';
import { defaultIfUnset, resetStatus } from '../../machinery/defaulting.js';
import { defaultRollingUpdate } from './workload-defaults.js';

function defaultDaemonSet(obj: Obj): void {
  checkTemplateGeneration(obj);
  const spec = child(obj, 'spec');
  defaultRollingUpdate(child(spec, 'updateStrategy'), 1, 0);
  defaultIfUnset(spec, 'revisionHistoryLimit', 10);
  defaultWorkloadPodTemplate(spec);
}

const daemonSetStrategy: Strategy = {
  defaults: decodingDefaults(defaultDaemonSet),
  prepareForCreate(obj) {
    resetStatus(obj, { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    setTemplateGeneration(obj, 1);
  },
  prepareForUpdate(obj, old, ctx) {
    if (ctx.subresource !== '') return;
    // Otherwise the generation the client sent stands, and validation checks it.
    if (!semanticEqual(rec(obj.spec).template, rec(old.spec).template)) setTemplateGeneration(obj, templateGenerationOf(old) + 1);
  },
  validate: (obj) => validateDaemonSet(obj),
  validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? validateDaemonSetStatusUpdate(obj, old) : validateDaemonSetUpdate(obj, old)),
};

export const daemonSets = apps({
  kind: 'DaemonSet',
  plural: 'daemonsets',
  shortNames: ['ds'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
  strategy: daemonSetStrategy,
});
