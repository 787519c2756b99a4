import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateAuditSettings } from '../server/audit/options.js';
import { type AuditFlags, auditFromFlags } from './audit-flags.js';
import { apiServerCommand } from './flags.js';

const parse = (args: string[]) =>
  apiServerCommand('orch', 'test')
    .parse(['node', 'orch', ...args])
    .opts<AuditFlags>();

test("the --audit-* flags: upstream's defaults", () => {
  assert.equal(auditFromFlags(parse([])), undefined);
  const s = auditFromFlags(parse(['--audit-policy-file', 'p.yaml', '--audit-log-path', '-', '--audit-webhook-config-file', 'w.kubeconfig']));
  assert.deepEqual(s, {
    policyFile: 'p.yaml',
    log: { path: '-', maxAgeDays: 0, maxBackups: 0, maxSizeMB: 0, format: 'json', mode: 'blocking', bufferSize: 10_000 },
    webhook: {
      configFile: 'w.kubeconfig',
      mode: 'batch',
      initialBackoffMs: 10_000,
      batch: { bufferSize: 10_000, maxBatchSize: 400, maxBatchWaitMs: 30_000, throttle: { qps: 10, burst: 15 } },
    },
  });
  const off = auditFromFlags(
    parse(['--audit-webhook-config-file', 'w', '--audit-webhook-batch-throttle-enable=false', '--audit-webhook-batch-max-wait', '5s']),
  );
  assert.equal(off?.webhook?.batch.throttle, undefined);
  assert.equal(off?.webhook?.batch.maxBatchWaitMs, 5000);
});

test("bad values: upstream's validation messages", () => {
  const s = auditFromFlags(
    parse([
      '--audit-log-path',
      '/x',
      '--audit-log-maxage',
      '-1',
      '--audit-log-maxbackup',
      '-2',
      '--audit-log-maxsize',
      '-3',
      '--audit-log-format',
      'xml',
      '--audit-log-mode',
      'fast',
    ]),
  );
  assert.deepEqual(validateAuditSettings(s ?? {}), [
    'invalid audit log mode fast, allowed modes are "batch,blocking,blocking-strict"',
    'invalid audit log format xml, allowed formats are "legacy,json"',
    "--audit-log-maxage -1 can't be a negative number",
    "--audit-log-maxbackup -2 can't be a negative number",
    "--audit-log-maxsize -3 can't be a negative number",
  ]);
  const w = auditFromFlags(parse(['--audit-webhook-config-file', 'w', '--audit-webhook-batch-max-size', '0']));
  assert.deepEqual(validateAuditSettings(w ?? {}), ['invalid audit batch webhook max batch size 0, must be a positive number']);
});
