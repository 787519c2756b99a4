/**
 * Webhook token authentication (`--authentication-token-webhook-config-file`), as upstream's:
 * the token is POSTed as a TokenReview to the server the kubeconfig names; `authenticated: true`
 * is the user, `false` with an error is a failure (401), `false` without one is not-mine.
 * Transport failures are retried with upstream's backoff, each attempt bounded, and end as a
 * failure (401), never a 500 or a hang. Answers (both kinds) are cached for the TTL.
 */
import { createHash } from 'node:crypto';
import https from 'node:https';
import type { KubeconfigConnection } from '../../pki/kubeconfig-read.js';
import type { UserInfo } from '../../machinery/user.js';
import { AuthenticationFailure } from './authenticator.js';
import type { TokenAuthenticator } from './token.js';

export interface WebhookTokenOptions {
  connection: KubeconfigConnection;
  /** `authentication.orch.io/v1beta1` or `/v1` (the brand's group). */
  apiVersion: string;
  /** `--authentication-token-webhook-cache-ttl` (upstream 2m). */
  cacheTtlMs: number;
  /** One attempt's limit. */
  attemptTimeoutMs?: number;
  /** Upstream's DefaultAuthWebhookRetryBackoff: 500 ms, x1.5, jitter 0.2, 5 steps. */
  backoff?: { initialMs: number; factor: number; jitter: number; steps: number };
  now?: () => number;
}

const DEFAULT_BACKOFF = { initialMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };
const CACHE_ENTRIES = 10_000;
/** Largest TokenReview answer read; a webhook cannot make the server buffer without bound. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

type Answer = { user: UserInfo } | { error: string } | { none: true };

export function webhookTokenAuthenticator(opts: WebhookTokenOptions): TokenAuthenticator {
  const now = opts.now ?? Date.now;
  const url = new URL(opts.connection.server);
  const agent = new https.Agent({
    keepAlive: true,
    ca: opts.connection.caPem,
    cert: opts.connection.certPem,
    key: opts.connection.keyPem,
    rejectUnauthorized: !opts.connection.insecureSkipTlsVerify,
  });
  const backoff = opts.backoff ?? DEFAULT_BACKOFF;
  const cache = new Map<string, { answer: Answer; expires: number }>();

  const post = (token: string): Promise<{ status: number; body: unknown }> => {
    const payload = JSON.stringify({
      apiVersion: opts.apiVersion,
      kind: 'TokenReview',
      metadata: { creationTimestamp: null },
      spec: { token },
      status: { user: {} },
    });
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method: 'POST',
          timeout: opts.attemptTimeoutMs ?? 10_000,
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
      req.end(payload);
    });
  };

  const review = async (token: string): Promise<Answer> => {
    let delay = backoff.initialMs;
    let last = 'webhook unreachable';
    for (let step = 0; step < backoff.steps; step++) {
      try {
        const { status, body } = await post(token);
        // Upstream retries server-side failures and throttling; other answers are final.
        if (status >= 500 || status === 429) last = `webhook answered ${status}`;
        else if (status < 200 || status > 299) return { error: `webhook answered ${status}` };
        else return answerOf(body);
      } catch (e) {
        last = e instanceof Error ? e.message : String(e);
      }
      if (step + 1 < backoff.steps) {
        await new Promise((r) => setTimeout(r, delay * (1 + Math.random() * backoff.jitter)));
        delay *= backoff.factor;
      }
    }
    return { error: last };
  };

  return {
    async authenticateToken(token) {
      const key = createHash('sha256').update(token).digest('base64');
      let hit = cache.get(key);
      if (!hit || hit.expires <= now()) {
        const answer = await review(token);
        if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
        hit = { answer, expires: now() + opts.cacheTtlMs };
        cache.set(key, hit);
      }
      const { answer } = hit;
      if ('user' in answer) return answer.user;
      if ('error' in answer) throw new AuthenticationFailure(answer.error);
      return undefined;
    },
  };
}

/** The TokenReview status as upstream's webhook authenticator reads it. */
function answerOf(body: unknown): Answer {
  const status = (body as { status?: Record<string, unknown> } | undefined)?.status;
  if (!status || typeof status !== 'object') return { error: 'webhook answered no TokenReview status' };
  if (status.authenticated !== true) return typeof status.error === 'string' && status.error !== '' ? { error: status.error } : { none: true };
  const u = (status.user ?? {}) as Record<string, unknown>;
  if (typeof u.username !== 'string' || u.username === '') return { none: true };
  const user: UserInfo = { name: u.username, groups: Array.isArray(u.groups) ? u.groups.filter((g): g is string => typeof g === 'string') : [] };
  if (typeof u.uid === 'string' && u.uid !== '') user.uid = u.uid;
  if (u.extra && typeof u.extra === 'object') {
    const extra: Record<string, string[]> = Object.create(null);
    for (const [k, v] of Object.entries(u.extra as Record<string, unknown>))
      if (Array.isArray(v)) extra[k] = v.filter((x): x is string => typeof x === 'string');
    user.extra = extra;
  }
  return { user };
}
