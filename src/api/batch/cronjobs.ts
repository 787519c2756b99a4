/**
 * CronJob: batch/v1 defaults (concurrencyPolicy Allow, not suspended, 3 successful and 1 failed
 * Jobs kept, the job template's pod defaults) and upstream's validation.
 */
import type { Obj } from '../../machinery/object.js';
import { child } from '../../machinery/fields.js';
import { decodingDefaults } from '../core/decoding.js';
import { defaultWorkloadPodTemplate } from '../apps/pod-template.js';
import { defaultIfEmpty, defaultIfUnset, resetStatus } from '../../machinery/defaulting.js';
import { batch } from '../groups.js';
import type { Strategy } from '../types.js';
import { validateCronJob, validateCronJobUpdate } from './cronjob-validation.js';

/** Upstream's SetObjectDefaults_CronJob: the CronJob's own defaults and its pod template's (not SetDefaults_Job). */
function defaultCronJob(obj: Obj): void {
  const spec = child(obj, 'spec');
  defaultIfEmpty(spec, 'concurrencyPolicy', 'Allow');
  defaultIfUnset(spec, 'suspend', false);
  defaultIfUnset(spec, 'successfulJobsHistoryLimit', 3);
  defaultIfUnset(spec, 'failedJobsHistoryLimit', 1);
  defaultWorkloadPodTemplate(child(child(spec, 'jobTemplate'), 'spec'));
}

const cronJobStrategy: Strategy = {
  defaults: decodingDefaults(defaultCronJob),
  prepareForCreate: (obj) => resetStatus(obj),
  validate: (obj) => validateCronJob(obj),
  // Upstream's status strategy validates nothing beyond the metadata.
  validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? [] : validateCronJobUpdate(obj, old)),
};

export const cronJobs = batch({
  kind: 'CronJob',
  plural: 'cronjobs',
  shortNames: ['cj'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
  strategy: cronJobStrategy,
});
