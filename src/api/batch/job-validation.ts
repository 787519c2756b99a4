/**
 * Job validation as upstream's batch validation (1.25): ValidateJob (generated selector, the
 * job-tracking annotation only on Jobs that had it, indexed pod hostnames), validateJobSpec
 * (shared with CronJob templates), the immutable fields of ValidateJobSpecUpdate (with the
 * scheduling directives a suspended, never-started Job may change), and the status rules.
 * Upstream's update runs ValidateJob and ValidateJobUpdate, which validates the spec again:
 * its spec errors appear twice, as they do upstream.
 */
import { goLabelSelector } from '../../machinery/go-format.js';
import { validateLabelSelector } from '../../machinery/label-selector.js';
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { metaOf } from '../../machinery/object.js';
import { semanticEqual } from '../core/semantic.js';
import { duplicate, type FieldError, forbiddenField, invalid, notSupported, required } from '../../machinery/status.js';
import { isDNS1123Label } from '../../machinery/validation.js';
import { isSet, list, num, numOrNil, type Rec, rec, recOrNil, str } from '../../machinery/fields.js';
import { FIELD_IMMUTABLE_ERROR_MSG, validateNonnegativeField } from '../core/value-validation.js';
import { validateWorkloadPodTemplate } from '../apps/pod-template.js';
import { compileSelector, labelSelectorOf, selectorMismatch } from '../apps/workload-validation.js';
import { generatedSelectorErrors } from './job-selector.js';

/** The largest parallelism of an Indexed Job (caps the length of status.completedIndexes). */
const MAX_PARALLELISM_FOR_INDEXED_JOB = 100000;

/** The annotation that marks Jobs tracked with finalizers (`batch.kubernetes.io/job-tracking` upstream). */
export function jobTrackingAnnotation(brand: Brand): string {
  return `batch.${brand.labelDomain}/job-tracking`;
}

function nonnegativeIfSet(spec: Rec, names: readonly string[], fldPath: string): FieldError[] {
  return names.flatMap((n) => (typeof spec[n] === 'number' ? validateNonnegativeField(spec[n] as number, `${fldPath}.${n}`) : []));
}

/** Upstream's validateJobSpec: counts, completion mode, the pod template and its restart policy. */
export function jobSpecErrors(spec: Rec, fldPath: string): FieldError[] {
  const errs = nonnegativeIfSet(spec, ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished'], fldPath);
  if (isSet(spec.completionMode)) {
    const mode = str(spec.completionMode);
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(notSupported(`${fldPath}.completionMode`, mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (!isSet(spec.completions)) errs.push(required(`${fldPath}.completions`, 'when completion mode is Indexed'));
      const parallelism = numOrNil(spec.parallelism);
      if (parallelism !== undefined && parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
        errs.push(
          invalid(`${fldPath}.parallelism`, parallelism, `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED_JOB} when completion mode is Indexed`),
        );
      }
    }
  }
  const template = rec(spec.template);
  const templatePath = `${fldPath}.template`;
  errs.push(...validateWorkloadPodTemplate(template, templatePath));
  // An unset policy was defaulted to Always with the pod template, so both read as "not given".
  const restartPolicy = str(rec(template.spec).restartPolicy);
  if (restartPolicy === 'Always' || restartPolicy === '') {
    errs.push(required(`${templatePath}.spec.restartPolicy`, 'valid values: "OnFailure", "Never"'));
  } else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    errs.push(notSupported(`${templatePath}.spec.restartPolicy`, restartPolicy, ['OnFailure', 'Never']));
  }
  return errs;
}

/** Upstream's ValidateJobSpec: validateJobSpec plus a required, valid selector that matches the template. */
function fullJobSpecErrors(spec: Rec): FieldError[] {
  const errs = jobSpecErrors(spec, 'spec');
  const sel = labelSelectorOf(spec.selector);
  if (sel === undefined) errs.push(required('spec.selector', ''));
  else errs.push(...validateLabelSelector(sel, 'spec.selector'));
  const matcher = compileSelector(sel);
  if (matcher !== undefined) errs.push(...selectorMismatch(matcher, rec(spec.template), 'spec.template'));
  return errs;
}

/** Upstream's ValidateJob; allowTrackingAnnotation is true on create and when the old Job had it. */
export function validateJob(job: Obj, brand: Brand, allowTrackingAnnotation: boolean): FieldError[] {
  const spec = rec(job.spec);
  const meta = metaOf(job);
  const errs = [...generatedSelectorErrors(job), ...fullJobSpecErrors(spec)];
  const annotation = jobTrackingAnnotation(brand);
  if (!allowTrackingAnnotation && Object.hasOwn(rec(meta.annotations), annotation)) {
    errs.push(forbiddenField(`metadata.annotations[${annotation}]`, 'cannot add this annotation'));
  }
  const completions = numOrNil(spec.completions);
  if (str(spec.completionMode) === 'Indexed' && completions !== undefined && completions > 0) {
    // Pods of an Indexed Job are named <job>-<index>; the last one must still be a DNS label.
    const hostname = `${meta.name ?? ''}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errs.push(invalid('metadata.name', meta.name ?? '', `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return errs;
}

/**
 * The old template as the update compares it: a suspended Job that never started may change its
 * node selector, tolerations, node affinity and template labels and annotations.
 */
function comparableOldTemplate(template: Rec, oldTemplate: Rec): Rec {
  const old = structuredClone(oldTemplate);
  const spec = rec(template.spec);
  const oldSpec = (old.spec = rec(old.spec));
  const affinity = recOrNil(spec.affinity);
  const oldAffinity = recOrNil(oldSpec.affinity);
  if (affinity === undefined && oldAffinity !== undefined) {
    delete oldAffinity.nodeAffinity;
    if (Object.keys(oldAffinity).length === 0) delete oldSpec.affinity;
  } else if (affinity !== undefined && oldAffinity === undefined) {
    oldSpec.affinity = isSet(affinity.nodeAffinity) ? { nodeAffinity: affinity.nodeAffinity } : {};
  } else if (affinity !== undefined && oldAffinity !== undefined) {
    oldAffinity.nodeAffinity = affinity.nodeAffinity;
  }
  oldSpec.nodeSelector = spec.nodeSelector;
  oldSpec.tolerations = spec.tolerations;
  const meta = rec(template.metadata);
  const oldMeta = (old.metadata = rec(old.metadata));
  oldMeta.annotations = meta.annotations;
  oldMeta.labels = meta.labels;
  return old;
}

/** Upstream's ValidateJobSpecUpdate: the spec's rules again, then the immutable fields. */
function jobSpecUpdateErrors(spec: Rec, oldSpec: Rec, mutableSchedulingDirectives: boolean): FieldError[] {
  const errs = fullJobSpecErrors(spec);
  if (!semanticEqual(spec.completions, oldSpec.completions)) errs.push(invalid('spec.completions', spec.completions ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  if (!semanticEqual(spec.selector, oldSpec.selector)) errs.push(invalid('spec.selector', goLabelSelector(spec.selector), FIELD_IMMUTABLE_ERROR_MSG));
  const template = rec(spec.template);
  const oldTemplate = mutableSchedulingDirectives ? comparableOldTemplate(template, rec(oldSpec.template)) : rec(oldSpec.template);
  if (!semanticEqual(template, oldTemplate)) errs.push(invalid('spec.template', template, FIELD_IMMUTABLE_ERROR_MSG));
  if (!semanticEqual(spec.completionMode, oldSpec.completionMode)) {
    errs.push(invalid('spec.completionMode', spec.completionMode ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  }
  return errs;
}

/** Upstream's job strategy ValidateUpdate: ValidateJob and ValidateJobUpdate with the old Job's options. */
export function validateJobUpdate(job: Obj, old: Obj, brand: Brand): FieldError[] {
  const oldMeta = metaOf(old);
  const allowTracking = Object.hasOwn(rec(oldMeta.annotations), jobTrackingAnnotation(brand));
  const oldSpec = rec(old.spec);
  const suspendedNeverStarted = oldSpec.suspend === true && !isSet(rec(old.status).startTime);
  return [...validateJob(job, brand, allowTracking), ...jobSpecUpdateErrors(rec(job.spec), oldSpec, suspendedNeverStarted)];
}

/** uncountedTerminatedPods: no empty and no repeated pod UID across both lists. */
function uncountedPodsErrors(uncounted: Rec): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const key of ['succeeded', 'failed']) {
    list(uncounted[key]).forEach((v, i) => {
      const uid = str(v);
      const path = `status.uncountedTerminatedPods.${key}[${i}]`;
      if (uid === '') errs.push(invalid(path, uid, 'must not be empty'));
      else if (seen.has(uid)) errs.push(duplicate(path, uid));
      else seen.add(uid);
    });
  }
  return errs;
}

/** Upstream's ValidateJobUpdateStatus (status rules only). */
export function validateJobStatusUpdate(job: Obj): FieldError[] {
  const status = rec(job.status);
  const errs = ['active', 'succeeded', 'failed'].flatMap((n) => validateNonnegativeField(num(status[n]), `status.${n}`));
  if (typeof status.ready === 'number') errs.push(...validateNonnegativeField(status.ready, 'status.ready'));
  const uncounted = recOrNil(status.uncountedTerminatedPods);
  if (uncounted !== undefined) errs.push(...uncountedPodsErrors(uncounted));
  return errs;
}
