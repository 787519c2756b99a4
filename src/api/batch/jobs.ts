/**
 * Job: batch/v1 defaults (completions and parallelism 1 when both are unset, backoffLimit 6,
 * NonIndexed, not suspended, labels from the template, the pod template's defaults), the
 * generated selector and job-tracking annotation on create, and upstream's validation.
 */
import type { Obj } from '../../machinery/object.js';
import { metaOf } from '../../machinery/object.js';
import { child, isSet, rec } from '../../machinery/fields.js';
import { decodingDefaults } from '../core/decoding.js';
import { defaultWorkloadPodTemplate } from '../apps/pod-template.js';
import { defaultIfUnset, resetStatus } from '../../machinery/defaulting.js';
import { count } from '../define.js';
import { batch } from '../groups.js';
import type { Strategy } from '../types.js';
import { defaultJobLabels, generateSelector } from './job-selector.js';
import { jobTrackingAnnotation, validateJob, validateJobStatusUpdate, validateJobUpdate } from './job-validation.js';

/** Upstream's SetDefaults_Job (and the generated defaulters of its pod template). */
function defaultJob(job: Obj): void {
  const spec = child(job, 'spec');
  if (!isSet(spec.completions) && !isSet(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  defaultIfUnset(spec, 'parallelism', 1);
  defaultIfUnset(spec, 'backoffLimit', 6);
  defaultJobLabels(job);
  defaultIfUnset(spec, 'completionMode', 'NonIndexed');
  defaultIfUnset(spec, 'suspend', false);
  defaultWorkloadPodTemplate(spec);
}

const jobStrategy: Strategy = {
  defaults: decodingDefaults(defaultJob),
  prepareForCreate(obj, ctx) {
    resetStatus(obj);
    const meta = metaOf(obj);
    // JobTrackingWithFinalizers is on in 1.25: every new Job is marked as tracked that way.
    meta.annotations = { ...(rec(meta.annotations) as Record<string, string>), [jobTrackingAnnotation(ctx.brand)]: '' };
    // The JobPodFailurePolicy gate is off in 1.25.
    delete child(obj, 'spec').podFailurePolicy;
    generateSelector(obj);
  },
  prepareForUpdate(obj, old, ctx) {
    if (ctx.subresource === '' && !isSet(rec(old.spec).podFailurePolicy)) delete child(obj, 'spec').podFailurePolicy;
  },
  validate: (obj, ctx) => validateJob(obj, ctx.brand, true),
  validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? validateJobStatusUpdate(obj) : validateJobUpdate(obj, old, ctx.brand)),
};

export const jobs = batch({
  kind: 'Job',
  plural: 'jobs',
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
  strategy: jobStrategy,
  fieldSelectors: { 'status.successful': count('status.succeeded') },
});
