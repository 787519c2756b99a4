/**
 * batch/v1 defaulting and validation through HTTP, as upstream 1.25: Jobs (defaults, generated
 * selector and labels, restart policy, immutable fields) and CronJobs (schedule syntax as
 * robfig/cron's standard parser, time zones, name length, job template rules).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../src/machinery/brand.js';
import { clusterClient, MERGE } from './helpers/cluster-client.js';
import { assertInvalid, assertInvalidExactly, assertOk } from './helpers/invalid.js';

const NS = 'batch-v';
const BATCH = `/apis/batch/v1/namespaces/${NS}`;

const call = clusterClient({}, NS);
/** A cluster that spells upstream's names (--kubernetes-compat). */
const compatCall = clusterClient({ kubernetesCompat: true }, NS);

function podTemplate(extraSpec: Record<string, unknown> = {}, labels?: Record<string, string>): Record<string, unknown> {
  return { ...(labels ? { metadata: { labels } } : {}), spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }], ...extraSpec } };
}

function job(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return { metadata: { name }, spec: { template: podTemplate(), ...spec } };
}

function cronJob(name: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return { metadata: { name }, spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate() } }, ...spec } };
}

describe('Job', () => {
  it('is defaulted as batch/v1 and gets a generated selector and labels', async () => {
    const j = assertOk(await call('POST', `${BATCH}/jobs`, job('defaults', { template: podTemplate({}, { app: 'batch' }) })), 201);
    const uid = j.metadata.uid;
    assert.equal(j.spec.completions, 1);
    assert.equal(j.spec.parallelism, 1);
    assert.equal(j.spec.backoffLimit, 6);
    assert.equal(j.spec.completionMode, 'NonIndexed');
    assert.equal(j.spec.suspend, false);
    assert.deepEqual(j.spec.selector, { matchLabels: { 'controller-uid': uid } });
    assert.deepEqual(j.spec.template.metadata.labels, { app: 'batch', 'job-name': 'defaults', 'controller-uid': uid });
    // The Job's labels were defaulted from the template (the same map upstream), generated ones included.
    assert.deepEqual(j.metadata.labels, { app: 'batch', 'job-name': 'defaults', 'controller-uid': uid });
    assert.equal(j.metadata.annotations[`batch.${ORCH_BRAND.labelDomain}/job-tracking`], '');
    assert.equal(j.spec.template.spec.terminationGracePeriodSeconds, 30);
    const parallel = assertOk(await call('POST', `${BATCH}/jobs`, job('parallel', { parallelism: 3 })), 201);
    assert.equal(parallel.spec.completions, undefined);
  });

  it('writes the job-name label for a generated name, and upstream names under --kubernetes-compat', async () => {
    const j = assertOk(await call('POST', `${BATCH}/jobs`, { metadata: { generateName: 'gen-' }, spec: { template: podTemplate() } }), 201);
    assert.match(j.metadata.name, /^gen-[a-z0-9]{5}$/);
    assert.equal(j.spec.template.metadata.labels['job-name'], j.metadata.name);
    const k = assertOk(await compatCall('POST', `${BATCH}/jobs`, job('compat')), 201);
    assert.equal(k.metadata.annotations[`batch.${KUBERNETES_BRAND.labelDomain}/job-tracking`], '');
  });

  it('needs OnFailure or Never as restart policy', async () => {
    const always = await call('POST', `${BATCH}/jobs`, job('always', { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } }));
    assertInvalidExactly(always, 'Job', [['spec.template.spec.restartPolicy', 'Required value: valid values: "OnFailure", "Never"']]);
  });

  it('checks counts and completion modes', async () => {
    const r = await call('POST', `${BATCH}/jobs`, job('counts', { parallelism: -1, backoffLimit: -2, activeDeadlineSeconds: -3, completionMode: 'Sometimes' }));
    assertInvalidExactly(r, 'Job', [
      ['spec.parallelism', 'Invalid value: -1: must be greater than or equal to 0'],
      ['spec.activeDeadlineSeconds', 'Invalid value: -3: must be greater than or equal to 0'],
      ['spec.backoffLimit', 'Invalid value: -2: must be greater than or equal to 0'],
      ['spec.completionMode', 'Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"'],
    ]);
    const indexed = await call('POST', `${BATCH}/jobs`, job('indexed', { completionMode: 'Indexed', parallelism: 100001 }));
    assertInvalid(indexed, 'Job', [
      ['spec.completions', 'Required value: when completion mode is Indexed'],
      ['spec.parallelism', 'Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed'],
    ]);
  });

  it('rejects a manual selector that does not match, and a generated one that was tampered with', async () => {
    const manual = await call(
      'POST',
      `${BATCH}/jobs`,
      job('manual', { manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: podTemplate({}, { a: 'c' }) }),
    );
    assertInvalidExactly(manual, 'Job', [
      ['spec.template.metadata.labels', 'Invalid value: map[string]string{"a":"c"}: `selector` does not match template `labels`'],
    ]);
    const wrong = await call('POST', `${BATCH}/jobs`, job('wrong', { selector: { matchLabels: { 'controller-uid': 'x' } } }));
    const body = assertInvalid(wrong, 'Job', []);
    const fields = body.details.causes.map((c: { field: string }) => c.field);
    assert.ok(fields.includes('spec.selector'), JSON.stringify(body.details.causes));
    assert.ok(body.details.causes.some((c: { message: string }) => c.message.endsWith('`selector` not auto-generated')));
  });

  it('keeps completions, selector and template after creation', async () => {
    assertOk(await call('POST', `${BATCH}/jobs`, job('immutable')), 201);
    const r = await call('PATCH', `${BATCH}/jobs/immutable`, { spec: { completions: 2 } }, MERGE);
    assertInvalidExactly(r, 'Job', [['spec.completions', 'Invalid value: 2: field is immutable']]);
    const t = await call('PATCH', `${BATCH}/jobs/immutable`, { spec: { template: { spec: { containers: [{ name: 'c', image: 'alpine' }] } } } }, MERGE);
    assertInvalid(t, 'Job', []);
    assert.ok(t.json.details.causes.some((c: { field: string; message: string }) => c.field === 'spec.template' && c.message.endsWith(': field is immutable')));
  });

  it('lets a suspended Job that never started change its scheduling directives', async () => {
    assertOk(await call('POST', `${BATCH}/jobs`, job('suspended', { suspend: true })), 201);
    const j = assertOk(await call('PATCH', `${BATCH}/jobs/suspended`, { spec: { template: { spec: { nodeSelector: { zone: 'a' } } } } }, MERGE));
    assert.deepEqual(j.spec.template.spec.nodeSelector, { zone: 'a' });
  });

  it('repeats spec errors on update, as upstream does', async () => {
    assertOk(await call('POST', `${BATCH}/jobs`, job('twice')), 201);
    const r = await call('PATCH', `${BATCH}/jobs/twice`, { spec: { backoffLimit: -1 } }, MERGE);
    assertInvalidExactly(r, 'Job', [
      ['spec.backoffLimit', 'Invalid value: -1: must be greater than or equal to 0'],
      ['spec.backoffLimit', 'Invalid value: -1: must be greater than or equal to 0'],
    ]);
  });

  it('forbids adding the tracking annotation to a Job that lacked it', async () => {
    assertOk(await call('POST', `${BATCH}/jobs`, job('tracked')), 201);
    const key = `batch.${ORCH_BRAND.labelDomain}/job-tracking`;
    const removed = assertOk(await call('PATCH', `${BATCH}/jobs/tracked`, { metadata: { annotations: { [key]: null } } }, MERGE));
    assert.equal(removed.metadata.annotations?.[key], undefined);
    const r = await call('PATCH', `${BATCH}/jobs/tracked`, { metadata: { annotations: { [key]: '' } } }, MERGE);
    assertInvalidExactly(r, 'Job', [[`metadata.annotations[${key}]`, 'Forbidden: cannot add this annotation']]);
  });
});

describe('CronJob', () => {
  it('is defaulted as batch/v1', async () => {
    const cj = assertOk(await call('POST', `${BATCH}/cronjobs`, cronJob('defaults')), 201);
    assert.equal(cj.spec.concurrencyPolicy, 'Allow');
    assert.equal(cj.spec.suspend, false);
    assert.equal(cj.spec.successfulJobsHistoryLimit, 3);
    assert.equal(cj.spec.failedJobsHistoryLimit, 1);
    assert.equal(cj.spec.jobTemplate.spec.template.spec.dnsPolicy, 'ClusterFirst');
    assert.equal(cj.spec.jobTemplate.spec.backoffLimit, undefined);
  });

  it('accepts standard schedules and descriptors', async () => {
    for (const [i, schedule] of ['0 0 * * MON-FRI', '@hourly', '@every 90s', '15,45 */2 1-15 jan-jun ?', 'CRON_TZ=Europe/Berlin 0 6 * * *'].entries()) {
      assertOk(await call('POST', `${BATCH}/cronjobs`, cronJob(`ok-${i}`, { schedule })), 201);
    }
  });

  it("reports robfig/cron's parse errors", async () => {
    const cases: [string, string][] = [
      ['', 'Required value'],
      ['* * * *', 'Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]'],
      ['0 0 * * * *', 'Invalid value: "0 0 * * * *": expected exactly 5 fields, found 6: [0 0 * * * *]'],
      ['61 * * * *', 'Invalid value: "61 * * * *": end of range (61) above maximum (59): 61'],
      ['* * * * mon-sun', 'Invalid value: "* * * * mon-sun": beginning of range (1) beyond end of range (0): mon-sun'],
      ['@weekdays', 'Invalid value: "@weekdays": unrecognized descriptor: @weekdays'],
      ['@every 1y', 'Invalid value: "@every 1y": failed to parse duration @every 1y: time: unknown unit "y" in duration "1y"'],
    ];
    for (const [i, [schedule, message]] of cases.entries()) {
      assertInvalidExactly(await call('POST', `${BATCH}/cronjobs`, cronJob(`bad-${i}`, { schedule })), 'CronJob', [['spec.schedule', message]]);
    }
  });

  it('validates the time zone', async () => {
    assertOk(await call('POST', `${BATCH}/cronjobs`, cronJob('tz-ok', { timeZone: 'America/New_York' })), 201);
    const cases: [string, string][] = [
      ['', 'Invalid value: "": timeZone must be nil or non-empty string'],
      ['Mars/Olympus', 'Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'],
      ['america/new_york', 'Invalid value: "america/new_york": unknown time zone america/new_york'],
      ['Local', 'Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'],
      ['../etc/passwd', 'Invalid value: "../etc/passwd": unknown time zone ../etc/passwd'],
    ];
    for (const [i, [timeZone, message]] of cases.entries()) {
      assertInvalidExactly(await call('POST', `${BATCH}/cronjobs`, cronJob(`tz-${i}`, { timeZone })), 'CronJob', [['spec.timeZone', message]]);
    }
    const both = await call('POST', `${BATCH}/cronjobs`, cronJob('tz-both', { schedule: 'TZ=UTC 0 * * * *', timeZone: 'UTC' }));
    assertInvalidExactly(both, 'CronJob', [
      ['spec.schedule', 'Invalid value: "TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule'],
    ]);
  });

  it('limits names to 52 characters on create only', async () => {
    const name = 'a'.repeat(53);
    assertInvalidExactly(await call('POST', `${BATCH}/cronjobs`, cronJob(name)), 'CronJob', [
      ['metadata.name', `Invalid value: "${name}": must be no more than 52 characters`],
    ]);
    assertOk(await call('POST', `${BATCH}/cronjobs`, cronJob('a'.repeat(52))), 201);
  });

  it('checks the policy, the history limits and the job template', async () => {
    const r = await call(
      'POST',
      `${BATCH}/cronjobs`,
      cronJob('policy', {
        concurrencyPolicy: 'Sometimes',
        startingDeadlineSeconds: -1,
        successfulJobsHistoryLimit: -1,
        jobTemplate: { spec: { manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: podTemplate({ restartPolicy: 'Always' }) } },
      }),
    );
    assertInvalidExactly(r, 'CronJob', [
      ['spec.startingDeadlineSeconds', 'Invalid value: -1: must be greater than or equal to 0'],
      ['spec.concurrencyPolicy', 'Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"'],
      ['spec.jobTemplate.spec.template.spec.restartPolicy', 'Required value: valid values: "OnFailure", "Never"'],
      [
        'spec.jobTemplate.spec.selector',
        'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"a":"b"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
      ],
      ['spec.jobTemplate.spec.manualSelector', 'Unsupported value: true: supported values: "nil", "false"'],
      ['spec.successfulJobsHistoryLimit', 'Invalid value: -1: must be greater than or equal to 0'],
    ]);
  });

  it('checks the time zone on update only when it changes', async () => {
    assertOk(await call('POST', `${BATCH}/cronjobs`, cronJob('tz-up')), 201);
    const r = await call('PATCH', `${BATCH}/cronjobs/tz-up`, { spec: { timeZone: 'Nowhere/Land' } }, MERGE);
    assertInvalidExactly(r, 'CronJob', [['spec.timeZone', 'Invalid value: "Nowhere/Land": unknown time zone Nowhere/Land']]);
  });
});
