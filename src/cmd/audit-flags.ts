/** The API server's `--audit-*` flags (upstream's names and defaults) and the settings they make. */
import type { Command } from 'commander';
import { parseDuration } from '../machinery/duration.js';
import { AUDIT_LOG_DEFAULTS, AUDIT_WEBHOOK_DEFAULTS, type AuditSettings } from '../server/audit/options.js';
import { WEBHOOK_BATCH_DEFAULTS } from '../server/audit/webhook-backend.js';
import { duration, flagValue, goBoolFlag, integer } from './flag-values.js';

// Upstream's int flags take negatives; validation then says what is wrong with them.
const int = integer(-(2 ** 31), 2 ** 31 - 1, 'a whole number');
const float = flagValue((value: string): number => {
  const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw new Error('want a number');
  return n;
});

/** Adds the audit flags to the API server's command. */
export function addAuditFlags(cmd: Command): Command {
  const w = WEBHOOK_BATCH_DEFAULTS;
  return cmd
    .option('--audit-policy-file <file>', 'audit Policy (YAML or JSON): which requests are recorded, at which level; required for any audit event')
    .option('--audit-log-path <file>', "write audit events to this file, one per line ('-': standard output)")
    .option('--audit-log-maxage <days>', 'days to keep rotated audit log files (0: no limit)', int, AUDIT_LOG_DEFAULTS.maxAgeDays)
    .option('--audit-log-maxbackup <n>', 'rotated audit log files to keep (0: no limit)', int, AUDIT_LOG_DEFAULTS.maxBackups)
    .option('--audit-log-maxsize <megabytes>', 'size an audit log file reaches before it is rotated (0: 100)', int, AUDIT_LOG_DEFAULTS.maxSizeMB)
    .option('--audit-log-format <format>', 'audit log line format: json (one Event) or legacy (one line of text)', AUDIT_LOG_DEFAULTS.format)
    .option('--audit-log-mode <mode>', 'batch, blocking or blocking-strict (events are always queued, never holding a request)', AUDIT_LOG_DEFAULTS.mode)
    .option('--audit-log-batch-buffer-size <n>', 'audit log events queued before new ones are dropped', int, AUDIT_LOG_DEFAULTS.bufferSize)
    .option('--audit-webhook-config-file <file>', 'kubeconfig naming the server audit EventLists are POSTed to')
    .option('--audit-webhook-mode <mode>', 'batch, blocking or blocking-strict (blocking modes send each event alone)', AUDIT_WEBHOOK_DEFAULTS.mode)
    .option(
      '--audit-webhook-initial-backoff <duration>',
      'wait before retrying a failed audit webhook request',
      duration,
      AUDIT_WEBHOOK_DEFAULTS.initialBackoffMs,
    )
    .option('--audit-webhook-batch-buffer-size <n>', 'audit webhook events buffered before new ones are dropped', int, w.bufferSize)
    .option('--audit-webhook-batch-max-size <n>', 'events in one audit webhook batch at most', int, w.maxBatchSize)
    .option('--audit-webhook-batch-max-wait <duration>', 'longest wait before a partial audit webhook batch is sent', duration, parseDuration('30s'))
    .option('--audit-webhook-batch-throttle-enable [bool]', 'limit audit webhook batches a second', goBoolFlag, true)
    .option('--audit-webhook-batch-throttle-qps <qps>', 'audit webhook batches a second at most', float, w.throttle.qps)
    .option('--audit-webhook-batch-throttle-burst <n>', 'audit webhook batches sent at once after a quiet time', int, w.throttle.burst);
}

export interface AuditFlags {
  auditPolicyFile?: string;
  auditLogPath?: string;
  auditLogMaxage: number;
  auditLogMaxbackup: number;
  auditLogMaxsize: number;
  auditLogFormat: string;
  auditLogMode: string;
  auditLogBatchBufferSize: number;
  auditWebhookConfigFile?: string;
  auditWebhookMode: string;
  auditWebhookInitialBackoff: number;
  auditWebhookBatchBufferSize: number;
  auditWebhookBatchMaxSize: number;
  auditWebhookBatchMaxWait: number;
  auditWebhookBatchThrottleEnable: boolean;
  auditWebhookBatchThrottleQps: number;
  auditWebhookBatchThrottleBurst: number;
}

/** The audit settings of the flags (validated when the server builds them). */
export function auditFromFlags(f: AuditFlags): AuditSettings | undefined {
  if (!f.auditPolicyFile && !f.auditLogPath && !f.auditWebhookConfigFile) return undefined;
  return {
    policyFile: f.auditPolicyFile,
    log: f.auditLogPath
      ? {
          path: f.auditLogPath,
          maxAgeDays: f.auditLogMaxage,
          maxBackups: f.auditLogMaxbackup,
          maxSizeMB: f.auditLogMaxsize,
          format: f.auditLogFormat,
          mode: f.auditLogMode,
          bufferSize: f.auditLogBatchBufferSize,
        }
      : undefined,
    webhook: f.auditWebhookConfigFile
      ? {
          configFile: f.auditWebhookConfigFile,
          mode: f.auditWebhookMode,
          initialBackoffMs: f.auditWebhookInitialBackoff,
          batch: {
            bufferSize: f.auditWebhookBatchBufferSize,
            maxBatchSize: f.auditWebhookBatchMaxSize,
            maxBatchWaitMs: f.auditWebhookBatchMaxWait,
            throttle: f.auditWebhookBatchThrottleEnable ? { qps: f.auditWebhookBatchThrottleQps, burst: f.auditWebhookBatchThrottleBurst } : undefined,
          },
        }
      : undefined,
  };
}
