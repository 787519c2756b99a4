/**
 * The `--audit-*` settings, validated with upstream's messages, and what they build: the policy
 * and the backends behind it. As upstream, events are recorded only with both a policy and a
 * backend; the log file is created at start-up either way.
 */
import type { Brand } from '../../machinery/brand.js';
import { readKubeconfig } from '../../pki/kubeconfig-read.js';
import { type AuditBackend, type AuditMetrics, unionBackend } from './backend.js';
import { ensureLogFile, logBackend } from './log-backend.js';
import { type AuditPolicy, loadPolicyFile } from './policy.js';
import { type BatchSettings, WEBHOOK_BATCH_DEFAULTS, webhookBackend } from './webhook-backend.js';

export const AUDIT_MODES = ['batch', 'blocking', 'blocking-strict'] as const;
export type AuditMode = (typeof AUDIT_MODES)[number];
export const AUDIT_LOG_FORMATS = ['legacy', 'json'] as const;

export interface AuditLogSettings {
  path: string;
  maxAgeDays: number;
  maxBackups: number;
  maxSizeMB: number;
  format: string;
  mode: string;
  bufferSize: number;
}

export interface AuditWebhookSettings {
  configFile: string;
  mode: string;
  initialBackoffMs: number;
  batch: BatchSettings;
}

export interface AuditSettings {
  policyFile?: string;
  log?: AuditLogSettings;
  webhook?: AuditWebhookSettings;
}

/** Upstream's log defaults: blocking mode, a 10000-event buffer, the JSON format, no rotation limits. */
export const AUDIT_LOG_DEFAULTS = Object.freeze({ maxAgeDays: 0, maxBackups: 0, maxSizeMB: 0, format: 'json', mode: 'blocking', bufferSize: 10_000 });
/** Upstream's webhook defaults: batch mode, 10 s initial backoff, the batch defaults. */
export const AUDIT_WEBHOOK_DEFAULTS = Object.freeze({ mode: 'batch', initialBackoffMs: 10_000, batch: WEBHOOK_BATCH_DEFAULTS });

/** Upstream's AuditOptions.Validate: every problem, each its own message. */
export function validateAuditSettings(s: AuditSettings): string[] {
  const errs: string[] = [];
  const mode = (plugin: string, m: string) => {
    if (!(AUDIT_MODES as readonly string[]).includes(m)) errs.push(`invalid audit ${plugin} mode ${m}, allowed modes are "${AUDIT_MODES.join(',')}"`);
  };
  if (s.log) {
    mode('log', s.log.mode);
    if (s.log.mode === 'batch' && s.log.bufferSize <= 0) errs.push(`invalid audit batch log buffer size ${s.log.bufferSize}, must be a positive number`);
    if (!(AUDIT_LOG_FORMATS as readonly string[]).includes(s.log.format)) {
      errs.push(`invalid audit log format ${s.log.format}, allowed formats are "${AUDIT_LOG_FORMATS.join(',')}"`);
    }
    if (s.log.maxAgeDays < 0) errs.push(`--audit-log-maxage ${s.log.maxAgeDays} can't be a negative number`);
    if (s.log.maxBackups < 0) errs.push(`--audit-log-maxbackup ${s.log.maxBackups} can't be a negative number`);
    if (s.log.maxSizeMB < 0) errs.push(`--audit-log-maxsize ${s.log.maxSizeMB} can't be a negative number`);
  }
  if (s.webhook) {
    const { batch } = s.webhook;
    mode('webhook', s.webhook.mode);
    if (s.webhook.mode === 'batch') {
      if (batch.bufferSize <= 0) errs.push(`invalid audit batch webhook buffer size ${batch.bufferSize}, must be a positive number`);
      else if (batch.maxBatchSize <= 0) errs.push(`invalid audit batch webhook max batch size ${batch.maxBatchSize}, must be a positive number`);
      else if (batch.throttle && batch.throttle.qps <= 0)
        errs.push(`invalid audit batch webhook throttle QPS ${batch.throttle.qps}, must be a positive number`);
      else if (batch.throttle && batch.throttle.burst <= 0)
        errs.push(`invalid audit batch webhook throttle burst ${batch.throttle.burst}, must be a positive number`);
    }
  }
  return errs;
}

export interface Auditing {
  policy: AuditPolicy;
  backend: AuditBackend;
  metrics?: AuditMetrics;
}

/**
 * The policy and backends of the settings, or undefined when either is missing (nothing is then
 * recorded, at no cost per request). Throws upstream's start-up errors.
 */
export function buildAuditing(s: AuditSettings, brand: Brand, metrics?: AuditMetrics): Auditing | undefined {
  const errs = validateAuditSettings(s);
  if (errs.length > 0) throw new Error(errs.join('\n'));
  const policy = s.policyFile ? loadPolicyFile(s.policyFile, brand) : undefined;
  if (s.log && s.log.path !== '-') ensureLogFile(s.log.path);
  if (!policy || (!s.log && !s.webhook)) return undefined;
  const backends: AuditBackend[] = [];
  if (s.log) {
    backends.push(
      logBackend({
        path: s.log.path,
        format: s.log.format as 'json' | 'legacy',
        maxAgeDays: s.log.maxAgeDays,
        maxBackups: s.log.maxBackups,
        maxSizeMB: s.log.maxSizeMB,
        bufferSize: s.log.bufferSize,
        metrics,
      }),
    );
  }
  if (s.webhook) {
    // Blocking modes send each event as it comes (never holding the request); batch mode batches.
    const batch: BatchSettings = s.webhook.mode === 'batch' ? s.webhook.batch : { bufferSize: s.webhook.batch.bufferSize, maxBatchSize: 1, maxBatchWaitMs: 0 };
    backends.push(
      webhookBackend({
        connection: readKubeconfig(s.webhook.configFile),
        apiVersion: `${brand.group('audit', true)}/v1`,
        batch,
        initialBackoffMs: s.webhook.initialBackoffMs,
        metrics,
      }),
    );
  }
  return { policy, backend: unionBackend(backends, metrics), metrics };
}
