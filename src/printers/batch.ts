/** Printers of the batch group, keyed by kind. */
import type { Obj } from '../machinery/object.js';
import { NAME_COLUMN, column } from './columns.js';
import { BATCH_V1, BATCH_V1BETA1 } from './descriptions.js';
import { humanDuration, timestampMillis, translateTimestampSince } from './duration.js';
import { boolOrNilAt, isSetAt, listAt, numAt, numOrNilAt, strAt, valueAt } from '../machinery/fields.js';
import { boolPtrText, formatLabelSelector, nameOf } from './format.js';
import type { TablePrinter } from './types.js';
import { templateCells, templateColumns } from './workloads.js';

/** "succeeded/completions"; without completions "succeeded/1", or "succeeded/1 of parallelism". */
function completions(job: Obj): string {
  const succeeded = numAt(job, 'status.succeeded');
  const wanted = numOrNilAt(job, 'spec.completions');
  if (wanted !== undefined) return `${succeeded}/${wanted}`;
  const parallelism = numOrNilAt(job, 'spec.parallelism') ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** How long the job ran: until completion, or until now while it runs; "" before it starts. */
function jobDuration(job: Obj, now: Date): string {
  const start = timestampMillis(valueAt(job, 'status.startTime'));
  if (start === undefined) return '';
  const completion = timestampMillis(valueAt(job, 'status.completionTime'));
  return humanDuration((completion ?? now.getTime()) - start);
}

const jobPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Completions', 'string', BATCH_V1['JobStatus.succeeded']),
    column('Duration', 'string', 'Time required to complete the job.'),
    ...templateColumns(BATCH_V1['JobSpec.selector']),
  ],
  rows: (job, now) => [
    [nameOf(job), completions(job), jobDuration(job, now), ...templateCells(job, now, 'spec.template', formatLabelSelector(valueAt(job, 'spec.selector')))],
  ],
};

const cronJobPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Schedule', 'string', BATCH_V1BETA1['CronJobSpec.schedule']),
    column('Suspend', 'boolean', BATCH_V1BETA1['CronJobSpec.suspend']),
    column('Active', 'integer', BATCH_V1BETA1['CronJobStatus.active']),
    column('Last Schedule', 'string', BATCH_V1BETA1['CronJobStatus.lastScheduleTime']),
    ...templateColumns(BATCH_V1['JobSpec.selector']),
  ],
  rows: (cj, now) => [
    [
      nameOf(cj),
      strAt(cj, 'spec.schedule'),
      boolPtrText(boolOrNilAt(cj, 'spec.suspend')),
      listAt(cj, 'status.active').length,
      isSetAt(cj, 'status.lastScheduleTime') ? translateTimestampSince(valueAt(cj, 'status.lastScheduleTime'), now) : '<none>',
      ...templateCells(cj, now, 'spec.jobTemplate.spec.template', formatLabelSelector(valueAt(cj, 'spec.jobTemplate.spec.selector'))),
    ],
  ],
};

/** The batch group's printers by kind. */
export function batchPrinters(): Record<string, TablePrinter> {
  return { Job: jobPrinter, CronJob: cronJobPrinter };
}
