/**
 * SubjectAccessReview authorization, as upstream's webhook authorizer (used both by the
 * Webhook mode and by a component's delegated authorization): the request's attributes are
 * POSTed as a SubjectAccessReview; `allowed` allows, `denied` denies with the reason, anything
 * else is no opinion with the reason. Answers are cached per attributes for the allow and deny
 * TTLs; a failed review is no opinion with the error (the request is then 500 unless another
 * module allows).
 */
import type { KubeconfigConnection } from '../../pki/kubeconfig-read.js';
import { ALLOW, type Attributes, type Authorization, type Authorizer } from '../../machinery/authorization.js';
import { type WebhookBackoff, webhookPoster } from '../webhook-post.js';

export interface SubjectAccessReviewOptions {
  connection: KubeconfigConnection;
  /** `authorization.orch.io/v1` (the brand's group) or v1beta1. */
  apiVersion: string;
  /** Path to POST to instead of the kubeconfig server's own. */
  path?: string;
  authorizedTtlMs: number;
  unauthorizedTtlMs: number;
  attemptTimeoutMs?: number;
  backoff?: WebhookBackoff;
  now?: () => number;
}

const CACHE_ENTRIES = 10_000;

/** The SubjectAccessReview spec upstream sends for attributes. */
export function reviewSpec(attrs: Attributes): Record<string, unknown> {
  const spec: Record<string, unknown> = attrs.isResourceRequest
    ? {
        resourceAttributes: {
          namespace: attrs.namespace,
          verb: attrs.verb,
          group: attrs.apiGroup,
          version: attrs.apiVersion,
          resource: attrs.resource,
          subresource: attrs.subresource,
          name: attrs.name,
        },
      }
    : { nonResourceAttributes: { path: attrs.path, verb: attrs.verb } };
  spec.user = attrs.user.name;
  if (attrs.user.groups.length > 0) spec.groups = attrs.user.groups;
  if (attrs.user.uid) spec.uid = attrs.user.uid;
  if (attrs.user.extra && Object.keys(attrs.user.extra).length > 0) spec.extra = attrs.user.extra;
  return spec;
}

export function subjectAccessReviewAuthorizer(opts: SubjectAccessReviewOptions): Authorizer {
  const now = opts.now ?? Date.now;
  const poster = webhookPoster(opts.connection, { attemptTimeoutMs: opts.attemptTimeoutMs, backoff: opts.backoff, path: opts.path });
  const cache = new Map<string, { answer: Authorization; expires: number }>();
  const review = async (spec: Record<string, unknown>): Promise<Authorization> => {
    const result = await poster.post({
      apiVersion: opts.apiVersion,
      kind: 'SubjectAccessReview',
      metadata: { creationTimestamp: null },
      spec,
      status: { allowed: false },
    });
    if (!result.ok) return { decision: 'no-opinion', reason: '', error: result.error };
    const status = (result.body as { status?: Record<string, unknown> } | undefined)?.status ?? {};
    const reason = typeof status.reason === 'string' ? status.reason : '';
    if (status.allowed === true) return reason ? { decision: 'allow', reason } : ALLOW;
    if (status.denied === true) return { decision: 'deny', reason };
    return { decision: 'no-opinion', reason };
  };
  return {
    authorize(attrs) {
      const spec = reviewSpec(attrs);
      const key = JSON.stringify(spec);
      const hit = cache.get(key);
      if (hit && hit.expires > now()) return hit.answer;
      if (hit) cache.delete(key);
      return review(spec).then((answer) => {
        // Failures are not cached: the next request asks again.
        if (answer.error === undefined) {
          if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
          cache.set(key, { answer, expires: now() + (answer.decision === 'allow' ? opts.authorizedTtlMs : opts.unauthorizedTtlMs) });
        }
        return answer;
      });
    },
    // Upstream's webhook cannot list rules.
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true }),
  };
}

/** Upstream's path authorizer (`--authorization-always-allow-paths`): exact paths, or prefixes ending in `*`. */
export function pathAuthorizer(paths: readonly string[]): Authorizer {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const p of paths) {
    const trimmed = p.startsWith('/') ? p : `/${p}`;
    if (trimmed.endsWith('*')) prefixes.push(trimmed.slice(0, -1));
    else exact.add(trimmed);
  }
  const none: Authorization = { decision: 'no-opinion', reason: '' };
  return {
    authorize(attrs) {
      if (attrs.isResourceRequest) return none;
      if (exact.has(attrs.path) || prefixes.some((p) => attrs.path.startsWith(p))) return ALLOW;
      return none;
    },
    rulesFor: () => ({ resourceRules: [], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: [...paths] }], incomplete: false }),
  };
}
