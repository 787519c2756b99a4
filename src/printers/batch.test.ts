import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Obj } from '../machinery/object.js';
import { batchPrinters } from './batch.js';
import type { TablePrinter } from './types.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const ago = (s: number) => new Date(NOW.getTime() - s * 1000).toISOString();
const printers = batchPrinters();
const row = (printer: TablePrinter, obj: Obj) => printer.rows(obj, NOW)[0];
const names = (printer: TablePrinter) => printer.columns.map((c) => `${c.name}${c.priority ? '*' : ''}`);
const template = {
  spec: {
    containers: [
      { name: 'fake-job-container1', image: 'fake-job-image1' },
      { name: 'fake-job-container2', image: 'fake-job-image2' },
    ],
  },
};

describe('batch printers', () => {
  it('jobs: completions, duration and wide columns (TestPrintJob)', () => {
    const job = printers.Job;
    assert.deepEqual(names(job), ['Name', 'Completions', 'Duration', 'Age', 'Containers*', 'Images*', 'Selector*']);
    const j = (spec: Obj, status: Obj): Obj => ({
      metadata: { name: 'job1', creationTimestamp: ago(0) },
      spec: { template, selector: { matchLabels: { 'job-name': 'job1' } }, ...spec },
      status,
    });
    assert.deepEqual(row(job, j({ completions: 2 }, { succeeded: 1 })), [
      'job1',
      '1/2',
      '',
      '0s',
      'fake-job-container1,fake-job-container2',
      'fake-job-image1,fake-job-image2',
      'job-name=job1',
    ]);
    assert.equal(row(job, j({}, { succeeded: 0 }))[1], '0/1');
    assert.equal(row(job, j({ parallelism: 2 }, { succeeded: 0 }))[1], '0/1 of 2');
    assert.equal(row(job, j({ completions: 1 }, { startTime: ago(10), completionTime: ago(0) }))[2], '10s');
    assert.equal(row(job, j({ completions: 1 }, { startTime: ago(3 * 60) }))[2], '3m');
  });

  it('cron jobs: schedule, suspend, active, last schedule (TestPrintCronJob)', () => {
    const cj = printers.CronJob;
    assert.deepEqual(names(cj), ['Name', 'Schedule', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers*', 'Images*', 'Selector*']);
    const obj = {
      metadata: { name: 'cronjob1', creationTimestamp: ago(0) },
      spec: { schedule: '0/5 * * * ?', suspend: false, jobTemplate: { spec: { template, selector: { matchLabels: { a: 'b' } } } } },
      status: { lastScheduleTime: ago(0), active: [{ name: 'j1' }] },
    };
    assert.deepEqual(row(cj, obj), [
      'cronjob1',
      '0/5 * * * ?',
      'False',
      1,
      '0s',
      '0s',
      'fake-job-container1,fake-job-container2',
      'fake-job-image1,fake-job-image2',
      'a=b',
    ]);
    assert.deepEqual(row(cj, { ...obj, spec: { schedule: '@daily' }, status: {} }).slice(2, 5), ['<unset>', 0, '<none>']);
    assert.equal(cj.columns[2].type, 'boolean');
  });
});
