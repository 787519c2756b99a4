/**
 * Webhook token authentication (`--authentication-token-webhook-config-file`), as upstream's:
 * the token is POSTed as a TokenReview to the server the kubeconfig names; `authenticated: true`
 * is the user, `false` with an error is a failure (401), `false` without one is not-mine.
 * Transport failures are retried with upstream's backoff, each attempt bounded, and end as a
 * failure (401), never a 500 or a hang. Answers (both kinds) are cached for the TTL.
 */
import { createHash } from 'node:crypto';
import type { KubeconfigConnection } from '../../pki/kubeconfig-read.js';
import type { UserInfo } from '../../machinery/user.js';
import { AuthenticationFailure } from './authenticator.js';
import type { TokenAuthenticator } from './token.js';
import { type WebhookBackoff, webhookPoster } from '../webhook-post.js';

export interface WebhookTokenOptions {
  connection: KubeconfigConnection;
  /** `authentication.orch.io/v1beta1` or `/v1` (the brand's group). */
  apiVersion: string;
  /** `--authentication-token-webhook-cache-ttl` (upstream 2m). */
  cacheTtlMs: number;
  /** One attempt's limit. */
  attemptTimeoutMs?: number;
  /** Upstream's DefaultAuthWebhookRetryBackoff: 500 ms, x1.5, jitter 0.2, 5 steps. */
  backoff?: WebhookBackoff;
  /** Path to POST to instead of the kubeconfig server's own (delegated authentication posts to the tokenreviews resource). */
  path?: string;
  now?: () => number;
}

const CACHE_ENTRIES = 10_000;

type Answer = { user: UserInfo } | { error: string } | { none: true };

export function webhookTokenAuthenticator(opts: WebhookTokenOptions): TokenAuthenticator {
  const now = opts.now ?? Date.now;
  const poster = webhookPoster(opts.connection, { attemptTimeoutMs: opts.attemptTimeoutMs, backoff: opts.backoff, path: opts.path });
  const cache = new Map<string, { answer: Answer; expires: number }>();

  const review = async (token: string): Promise<Answer> => {
    const result = await poster.post({
      apiVersion: opts.apiVersion,
      kind: 'TokenReview',
      metadata: { creationTimestamp: null },
      spec: { token },
      status: { user: {} },
    });
    return result.ok ? answerOf(result.body) : { error: result.error };
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
