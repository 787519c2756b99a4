/**
 * The webhook backend (`--audit-webhook-config-file`): events are buffered and POSTed as
 * EventLists to the server a kubeconfig names, as upstream's batch backend sends them: a batch
 * goes when it holds --audit-webhook-batch-max-size events or --audit-webhook-batch-max-wait
 * after its first event, at most --audit-webhook-batch-throttle-qps batches a second (burst
 * --audit-webhook-batch-throttle-burst). The buffer is bounded (events waiting plus events being
 * sent): past --audit-webhook-batch-buffer-size an event is dropped and counted, never waited for.
 */
import { type WebhookClient, webhookClient } from '../../auth/webhook-client.js';
import type { KubeconfigConnection } from '../../pki/kubeconfig-read.js';
import type { AuditBackend, AuditMetrics } from './backend.js';

export const WEBHOOK_PLUGIN = 'webhook';

export interface BatchSettings {
  bufferSize: number;
  maxBatchSize: number;
  maxBatchWaitMs: number;
  /** Batches a second and burst; undefined: not throttled. */
  throttle?: { qps: number; burst: number };
}

/** Upstream's webhook batch defaults (10000 events, batches of 400, 30 s, 10 qps burst 15). */
export const WEBHOOK_BATCH_DEFAULTS: Readonly<Required<BatchSettings>> = Object.freeze({
  bufferSize: 10_000,
  maxBatchSize: 400,
  maxBatchWaitMs: 30_000,
  throttle: { qps: 10, burst: 15 },
});

export interface WebhookBackendOptions {
  connection: KubeconfigConnection;
  /** The EventList's apiVersion (`audit.orch.io/v1`, compat `audit.k8s.io/v1`). */
  apiVersion: string;
  batch: BatchSettings;
  /** --audit-webhook-initial-backoff (upstream 10 s); retries as upstream's generic webhook. */
  initialBackoffMs: number;
  metrics?: AuditMetrics;
  now?: () => number;
}

export function webhookBackend(opts: WebhookBackendOptions): AuditBackend {
  const client: WebhookClient = webhookClient({
    connection: opts.connection,
    backoff: { initialMs: opts.initialBackoffMs, factor: 1.5, jitter: 0.2, steps: 5 },
    expectJson: false,
  });
  const { bufferSize, maxBatchSize, maxBatchWaitMs, throttle } = opts.batch;
  const now = opts.now ?? Date.now;
  let buffer: string[] = [];
  let inFlight = 0;
  const sends = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let due = false;
  let pumping = false;
  let stopped = false;
  let reportedDrop = false;
  // Token bucket of the throttle.
  let tokens = throttle?.burst ?? 0;
  let refilledAt = now();

  const takeToken = async (): Promise<void> => {
    if (!throttle || stopped) return;
    for (;;) {
      const t = now();
      tokens = Math.min(throttle.burst, tokens + ((t - refilledAt) / 1000) * throttle.qps);
      refilledAt = t;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await new Promise((r) => setTimeout(r, Math.ceil(((1 - tokens) / throttle.qps) * 1000)));
    }
  };

  const send = (batch: string[]) => {
    inFlight += batch.length;
    const body = `{"kind":"EventList","apiVersion":${JSON.stringify(opts.apiVersion)},"metadata":{},"items":[${batch.join(',')}]}`;
    const p = client.post(body).then((reply) => {
      inFlight -= batch.length;
      sends.delete(p);
      if ('error' in reply) {
        opts.metrics?.error(WEBHOOK_PLUGIN, batch.length);
        console.error(`Error in audit plugin '${WEBHOOK_PLUGIN}' affecting ${batch.length} audit events: ${reply.error}`);
      }
    });
    sends.add(p);
  };

  const startTimer = () => {
    timer = setTimeout(() => {
      timer = undefined;
      due = true;
      void pump();
    }, maxBatchWaitMs);
    timer.unref();
  };

  const pump = async () => {
    if (pumping) return;
    pumping = true;
    while (buffer.length >= maxBatchSize || (due && buffer.length > 0)) {
      const batch = buffer.slice(0, maxBatchSize);
      buffer = buffer.slice(batch.length);
      inFlight += batch.length;
      if (buffer.length === 0) due = false;
      await takeToken();
      inFlight -= batch.length;
      send(batch);
    }
    pumping = false;
    if (buffer.length > 0 && timer === undefined && !due) startTimer();
  };

  return {
    process(_ev, json) {
      if (stopped) return;
      if (buffer.length + inFlight >= bufferSize) {
        opts.metrics?.error(WEBHOOK_PLUGIN, 1);
        if (!reportedDrop) console.error(`Error in audit plugin '${WEBHOOK_PLUGIN}' affecting 1 audit events: audit buffer queue blocked`);
        reportedDrop = true;
        return;
      }
      reportedDrop = false;
      buffer.push(json());
      if (buffer.length >= maxBatchSize) void pump();
      else if (timer === undefined && !pumping) startTimer();
    },
    async shutdown() {
      // What is buffered is sent at once, unthrottled, as upstream flushes on shutdown.
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      while (buffer.length > 0) send(buffer.splice(0, maxBatchSize));
      while (sends.size > 0) await Promise.all([...sends]);
      client.close();
    },
  };
}
