/**
 * A Job's generated selector, as upstream's job strategy generates and checks it (1.25): unless
 * `manualSelector` is true, the pod template gets `job-name` and `controller-uid` labels and
 * the selector matches `controller-uid=<the job's uid>`, so no two Jobs select the same pods.
 */
import { goLabelSelector, goStringMap } from '../../machinery/go-format.js';
import type { Obj } from '../../machinery/object.js';
import { isPlainObject, metaOf } from '../../machinery/object.js';
import { type FieldError, invalid, required } from '../../machinery/status.js';
import { child, type Rec, rec, strMap } from '../../machinery/fields.js';
import { compileSelector, labelSelectorOf } from '../apps/workload-validation.js';

export const CONTROLLER_UID_LABEL = 'controller-uid';
export const JOB_NAME_LABEL = 'job-name';

function isManual(spec: Rec): boolean {
  return spec.manualSelector === true;
}

/**
 * Upstream's generateSelector. A Job whose labels were defaulted from its template shares the
 * template's label map (as in Go, where defaulting assigns the same map), so the generated
 * labels appear on the Job too.
 */
export function generateSelector(job: Obj): void {
  const spec = child(job, 'spec');
  if (isManual(spec)) return;
  const meta = metaOf(job);
  const templateMeta = child(child(spec, 'template'), 'metadata');
  const labels = child(templateMeta, 'labels');
  if (!Object.hasOwn(labels, JOB_NAME_LABEL)) labels[JOB_NAME_LABEL] = meta.name ?? '';
  if (!Object.hasOwn(labels, CONTROLLER_UID_LABEL)) labels[CONTROLLER_UID_LABEL] = meta.uid ?? '';
  const matchLabels = child(child(spec, 'selector'), 'matchLabels');
  // A wrong controller-uid the client sent stays, and validation rejects it.
  if (!Object.hasOwn(matchLabels, CONTROLLER_UID_LABEL)) matchLabels[CONTROLLER_UID_LABEL] = meta.uid ?? '';
}

/** Upstream's ValidateHasLabel on the template's metadata. */
function hasLabelErrors(labels: Record<string, string> | undefined, key: string, expected: string): FieldError[] {
  const path = `spec.template.metadata.labels[${key}]`;
  if (labels === undefined || !Object.hasOwn(labels, key)) return [required(path, `must be '${expected}'`)];
  return labels[key] === expected ? [] : [invalid(path, goStringMap(labels), `must be '${expected}'`)];
}

/** Upstream's ValidateGeneratedSelector: the generated labels are in place and the selector is theirs. */
export function generatedSelectorErrors(job: Obj): FieldError[] {
  const spec = rec(job.spec);
  if (isManual(spec) || labelSelectorOf(spec.selector) === undefined) return [];
  const meta = metaOf(job);
  const uid = meta.uid ?? '';
  const name = meta.name ?? '';
  const errs: FieldError[] = [];
  if (uid === '') errs.push(required('metadata.uid', ''));
  const labels = strMap(rec(rec(spec.template).metadata).labels);
  errs.push(...hasLabelErrors(labels, CONTROLLER_UID_LABEL, uid), ...hasLabelErrors(labels, JOB_NAME_LABEL, name));
  const matcher = compileSelector(labelSelectorOf(spec.selector));
  if (matcher !== undefined && !matcher({ [CONTROLLER_UID_LABEL]: uid, [JOB_NAME_LABEL]: name })) {
    errs.push(invalid('spec.selector', goLabelSelector(spec.selector), '`selector` not auto-generated'));
  }
  return errs;
}

/** batch/v1's SetDefaults_Job label rule: a Job without labels takes its template's (the same map). */
export function defaultJobLabels(job: Obj): void {
  const meta = metaOf(job);
  const templateLabels = rec(rec(rec(job.spec).template).metadata).labels;
  if (isPlainObject(templateLabels) && Object.keys(rec(meta.labels)).length === 0) meta.labels = templateLabels as Record<string, string>;
}
