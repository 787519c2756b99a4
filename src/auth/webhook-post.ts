/**
 * POSTing a review (TokenReview, SubjectAccessReview) to the server a kubeconfig names, as
 * upstream's webhook client does: JSON over HTTPS with the kubeconfig's credentials, each
 * attempt bounded in time and in answer size, server failures (5xx, 429) and transport errors
 * retried with upstream's DefaultAuthWebhookRetryBackoff. Used by the token and authorization
 * webhooks and by the components' delegated authentication and authorization.
 */
import https from 'node:https';
import type { KubeconfigConnection } from '../pki/kubeconfig-read.js';

export interface WebhookBackoff {
  initialMs: number;
  factor: number;
  jitter: number;
  steps: number;
}

/** Upstream's DefaultAuthWebhookRetryBackoff: 500 ms, x1.5, jitter 0.2, 5 steps. */
export const DEFAULT_WEBHOOK_BACKOFF: WebhookBackoff = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };
/** Largest answer read; a webhook cannot make us buffer without bound. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

/** A final answer: 2xx with its JSON body, or another non-retried status. */
export type PostResult = { ok: true; body: unknown } | { ok: false; error: string };

export interface WebhookPoster {
  post(payload: unknown): Promise<PostResult>;
}

export function webhookPoster(
  connection: KubeconfigConnection,
  opts: { attemptTimeoutMs?: number; backoff?: WebhookBackoff; path?: string } = {},
): WebhookPoster {
  const url = new URL(connection.server);
  const path = opts.path ?? url.pathname + url.search;
  const agent = new https.Agent({
    keepAlive: true,
    ca: connection.caPem,
    cert: connection.certPem,
    key: connection.keyPem,
    rejectUnauthorized: !connection.insecureSkipTlsVerify,
  });
  const backoff = opts.backoff ?? DEFAULT_WEBHOOK_BACKOFF;

  const once = (bytes: string): Promise<{ status: number; body: unknown }> =>
    new Promise((resolve, reject) => {
      const req = https.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path,
          method: 'POST',
          timeout: opts.attemptTimeoutMs ?? 10_000,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(connection.token ? { authorization: `Bearer ${connection.token}` } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_RESPONSE_BYTES) res.destroy(new Error('webhook response too large'));
            else chunks.push(c);
          });
          res.on('end', () => {
            try {
              resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
            } catch {
              resolve({ status: res.statusCode ?? 0, body: undefined });
            }
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('webhook timed out')));
      req.on('error', reject);
      req.end(bytes);
    });

  return {
    async post(payload) {
      const bytes = JSON.stringify(payload);
      let delay = backoff.initialMs;
      let last = 'webhook unreachable';
      for (let step = 0; step < backoff.steps; step++) {
        try {
          const { status, body } = await once(bytes);
          // Upstream retries server-side failures and throttling; other answers are final.
          if (status >= 500 || status === 429) last = `webhook answered ${status}`;
          else if (status < 200 || status > 299) return { ok: false, error: `webhook answered ${status}` };
          else return { ok: true, body };
        } catch (e) {
          last = e instanceof Error ? e.message : String(e);
        }
        if (step + 1 < backoff.steps) {
          await new Promise((r) => setTimeout(r, delay * (1 + Math.random() * backoff.jitter)));
          delay *= backoff.factor;
        }
      }
      return { ok: false, error: last };
    },
  };
}
