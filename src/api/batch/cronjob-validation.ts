/**
 * CronJob validation as upstream's batch validation (1.25): the schedule (robfig's standard
 * parser), the time zone (an explicit IANA zone, checked when it is new or changed), the
 * concurrency policy, the job template (validateJobSpec; the selector is always generated),
 * the history limits, and on create a name of at most 52 characters (Job names get an
 * 11-character suffix).
 */
import { goLabelSelector } from '../../machinery/go-format.js';
import type { Obj } from '../../machinery/object.js';
import { metaOf } from '../../machinery/object.js';
import { type FieldError, invalid, notSupported, required } from '../../machinery/status.js';
import { DNS1035_LABEL_MAX_LENGTH } from '../../machinery/validation.js';
import { isSet, type Rec, rec, str } from '../../machinery/fields.js';
import { validateNonnegativeField } from '../core/value-validation.js';
import { scheduleError } from './cron-schedule.js';
import { jobSpecErrors } from './job-validation.js';
import { loadLocationError } from './time-zone.js';

/** Job names are `<cronjob>-<11 characters>` and must stay DNS-1035 labels. */
const MAX_CRONJOB_NAME_LENGTH = DNS1035_LABEL_MAX_LENGTH - 11;

const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

function scheduleErrors(spec: Rec): FieldError[] {
  const schedule = str(spec.schedule);
  if (schedule === '') return [required('spec.schedule', '')];
  const errs: FieldError[] = [];
  const err = scheduleError(schedule);
  if (err !== undefined) errs.push(invalid('spec.schedule', schedule, err));
  if (schedule.includes('TZ') && isSet(spec.timeZone)) {
    errs.push(invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  }
  return errs;
}

/** Upstream's validateTimeZone. */
export function timeZoneErrors(timeZone: unknown): FieldError[] {
  if (!isSet(timeZone)) return [];
  const tz = str(timeZone);
  const path = 'spec.timeZone';
  if (tz === '') return [invalid(path, tz, 'timeZone must be nil or non-empty string')];
  for (const part of tz.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part)) return [invalid(path, tz, `unknown time zone ${tz}`)];
  }
  const errs: FieldError[] = [];
  if (tz.toLowerCase() === 'local') errs.push(invalid(path, tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  const loadError = loadLocationError(tz);
  if (loadError !== undefined) errs.push(invalid(path, tz, loadError));
  return errs;
}

function concurrencyPolicyErrors(policy: string): FieldError[] {
  if (policy === 'Allow' || policy === 'Forbid' || policy === 'Replace') return [];
  if (policy === '') return [required('spec.concurrencyPolicy', '')];
  return [notSupported('spec.concurrencyPolicy', policy, ['Allow', 'Forbid', 'Replace'])];
}

/** Upstream's ValidateJobTemplateSpec at spec.jobTemplate. */
function jobTemplateErrors(jobTemplate: Rec): FieldError[] {
  const spec = rec(jobTemplate.spec);
  const errs = jobSpecErrors(spec, 'spec.jobTemplate.spec');
  if (isSet(spec.selector)) errs.push(invalid('spec.jobTemplate.spec.selector', goLabelSelector(spec.selector), '`selector` will be auto-generated'));
  if (spec.manualSelector === true) errs.push(notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  return errs;
}

/** Upstream's validateCronJobSpec; oldSpec is undefined on create. */
function cronJobSpecErrors(spec: Rec, oldSpec: Rec | undefined): FieldError[] {
  const errs = scheduleErrors(spec);
  if (typeof spec.startingDeadlineSeconds === 'number') errs.push(...validateNonnegativeField(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (oldSpec === undefined || (oldSpec.timeZone ?? null) !== (spec.timeZone ?? null)) errs.push(...timeZoneErrors(spec.timeZone));
  errs.push(...concurrencyPolicyErrors(str(spec.concurrencyPolicy)), ...jobTemplateErrors(rec(spec.jobTemplate)));
  for (const limit of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    if (typeof spec[limit] === 'number') errs.push(...validateNonnegativeField(spec[limit] as number, `spec.${limit}`));
  }
  return errs;
}

/** Upstream's ValidateCronJobCreate (without the generic metadata checks). */
export function validateCronJob(obj: Obj): FieldError[] {
  const errs = cronJobSpecErrors(rec(obj.spec), undefined);
  const name = metaOf(obj).name ?? '';
  if (name.length > MAX_CRONJOB_NAME_LENGTH) errs.push(invalid('metadata.name', name, `must be no more than ${MAX_CRONJOB_NAME_LENGTH} characters`));
  return errs;
}

/** Upstream's ValidateCronJobUpdate: the name length is not checked again, so older long names stay usable. */
export function validateCronJobUpdate(obj: Obj, old: Obj): FieldError[] {
  return cronJobSpecErrors(rec(obj.spec), rec(old.spec));
}
