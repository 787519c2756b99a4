/**
 * Posting a review to a webhook a kubeconfig names (the token authenticator's TokenReview, the
 * authorizer's SubjectAccessReview), as upstream's generic webhook does: TLS with the
 * kubeconfig's CA and client credentials, each attempt time-limited, the answer size-limited,
 * transport failures, 5xx and 429 retried with upstream's backoff. Never a hang: the whole
 * exchange ends within steps × (attempt limit + delay).
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
export const DEFAULT_WEBHOOK_BACKOFF: WebhookBackoff = Object.freeze({ initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 });

export interface WebhookClientOptions {
  connection: KubeconfigConnection;
  /** One attempt's limit (default 10 s). */
  attemptTimeoutMs?: number;
  backoff?: WebhookBackoff;
  /** Where to POST instead of the kubeconfig server's own path (delegation posts to the review resources). */
  path?: string;
  /** False when any 2xx is an answer, JSON or not (audit webhooks answer with an empty body). Default true. */
  expectJson?: boolean;
}

/** The decoded JSON answer of a 2xx, or why there is none. */
export type WebhookReply = { body: unknown } | { error: string };

export interface WebhookClient {
  /** POSTs the JSON payload, retrying as upstream; resolves (never rejects) with the reply. */
  post(payload: string): Promise<WebhookReply>;
  /** Closes kept-alive connections. */
  close(): void;
}

/** Largest answer read: a webhook cannot make the server buffer without bound. */
const MAX_RESPONSE_BYTES = 1024 * 1024;
const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;

export function webhookClient(opts: WebhookClientOptions): WebhookClient {
  const url = new URL(opts.connection.server);
  if (opts.path !== undefined) url.pathname = opts.path;
  const agent = new https.Agent({
    keepAlive: true,
    ca: opts.connection.caPem,
    cert: opts.connection.certPem,
    key: opts.connection.keyPem,
    rejectUnauthorized: !opts.connection.insecureSkipTlsVerify,
  });
  const backoff = opts.backoff ?? DEFAULT_WEBHOOK_BACKOFF;
  const where = `Post ${JSON.stringify(url.href)}`;

  const attempt = (payload: string): Promise<{ status: number; body: unknown }> =>
    new Promise((resolve, reject) => {
      const req = https.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: 'POST',
          timeout: opts.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(opts.connection.token ? { authorization: `Bearer ${opts.connection.token}` } : {}),
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
            let body: unknown;
            try {
              body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              body = undefined;
            }
            resolve({ status: res.statusCode ?? 0, body });
          });
          res.on('error', reject);
        },
      );
      // The timeout covers a silent webhook, before or after it answered the headers.
      req.on('timeout', () => req.destroy(new Error('webhook timed out')));
      req.on('error', reject);
      req.end(payload);
    });

  return {
    async post(payload) {
      let delay = backoff.initialMs;
      let last = 'webhook unreachable';
      for (let step = 0; step < backoff.steps; step++) {
        try {
          const { status, body } = await attempt(payload);
          // Upstream retries server-side failures and throttling; other answers are final.
          if (status >= 500 || status === 429) last = `${where}: the webhook answered ${status}`;
          else if (status < 200 || status > 299) return { error: `${where}: the webhook answered ${status}` };
          else if (body === undefined && opts.expectJson !== false) return { error: `${where}: the webhook's answer is not JSON` };
          else return { body };
        } catch (e) {
          last = `${where}: ${e instanceof Error ? e.message : String(e)}`;
        }
        if (step + 1 < backoff.steps) {
          await new Promise((r) => setTimeout(r, delay * (1 + Math.random() * backoff.jitter)));
          delay *= backoff.factor;
        }
      }
      return { error: last };
    },
    close() {
      agent.destroy();
    },
  };
}
