/**
 * The pod templates that workloads (apps and batch) embed, defaulted and validated by core's
 * pod rules, so a template is treated exactly as upstream's generated defaulters and
 * ValidatePodTemplateSpec treat it.
 */
import type { FieldError } from '../../machinery/status.js';
import { validateAnnotations } from '../../machinery/object-meta-validation.js';
import { validateLabels } from '../../machinery/validation.js';
import { child, type Rec, rec, strMap } from '../../machinery/fields.js';
import { defaultPodTemplateSpec } from '../core/pod-defaults.js';
import { validatePodTemplateSpec } from '../core/pod-validation.js';

/** Defaults a workload's `spec.template` in place (created when absent, as Go's embedded struct). */
export function defaultWorkloadPodTemplate(spec: Rec): void {
  defaultPodTemplateSpec(child(spec, 'template'));
}

/** Upstream's ValidatePodTemplateSpec of a workload's template at templatePath. */
export function validateWorkloadPodTemplate(template: Rec, templatePath: string): FieldError[] {
  return validatePodTemplateSpec(template, templatePath);
}

/**
 * The part of ValidatePodTemplateSpec that StatefulSets run (upstream leaves the pod spec
 * itself unvalidated for them): the template's labels and annotations.
 */
export function validateTemplateMetadata(template: Rec, templatePath: string): FieldError[] {
  const meta = rec(template.metadata);
  return [...validateLabels(strMap(meta.labels), `${templatePath}.labels`), ...validateAnnotations(strMap(meta.annotations), `${templatePath}.annotations`)];
}
