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
import { TtlCache } from '../ttl-cache.js';
import { type WebhookBackoff, webhookClient } from '../webhook-client.js';
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
  /** Upstream's DefaultAuthWebhookRetryBackoff unless given. */
  backoff?: WebhookBackoff;
  /** Path to POST to instead of the kubeconfig server's own (delegated authentication posts to the tokenreviews resource). */
  path?: string;
  now?: () => number;
}

const CACHE_ENTRIES = 10_000;

type Answer = { user: UserInfo } | { error: string } | { none: true };

export function webhookTokenAuthenticator(opts: WebhookTokenOptions): TokenAuthenticator {
  const client = webhookClient({ connection: opts.connection, attemptTimeoutMs: opts.attemptTimeoutMs, backoff: opts.backoff, path: opts.path });
  const cache = new TtlCache<Answer>(CACHE_ENTRIES, opts.now);

  const review = async (token: string): Promise<Answer> => {
    const reply = await client.post(
      JSON.stringify({ apiVersion: opts.apiVersion, kind: 'TokenReview', metadata: { creationTimestamp: null }, spec: { token }, status: { user: {} } }),
    );
    return 'error' in reply ? { error: reply.error } : answerOf(reply.body);
  };

  return {
    async authenticateToken(token) {
      // The cache keys on a digest: tokens are secrets and may be long.
      const key = createHash('sha256').update(token).digest('base64');
      let answer = cache.get(key);
      if (!answer) {
        answer = await review(token);
        cache.set(key, answer, opts.cacheTtlMs);
      }
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
