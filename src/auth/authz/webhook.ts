/**
 * The Webhook authorization mode (upstream's plugin/pkg/authorizer/webhook, 1.25): each request's
 * attributes are POSTed as a SubjectAccessReview to the service the kubeconfig names. `denied`
 * is a deny (the chain stops), `allowed` an allow, neither no opinion; a webhook that cannot be
 * reached is no opinion with an error, which the filter answers 500 unless another mode allows.
 * Answers are cached by the review's spec, allowed ones for the authorized TTL and the others
 * for the unauthorized TTL; a cached answer costs no promise.
 */
import { createHash } from 'node:crypto';
import type { Attributes, Authorization, Authorizer } from '../../machinery/authorization.js';
import type { KubeconfigConnection } from '../../pki/kubeconfig-read.js';
import { TtlCache } from '../ttl-cache.js';
import { type WebhookBackoff, webhookClient } from '../webhook-client.js';

export interface WebhookAuthorizerOptions {
  connection: KubeconfigConnection;
  /** The SubjectAccessReview group (`authorization.orch.io`, the brand's, as the token webhook sends TokenReviews). */
  group: string;
  /** `--authorization-webhook-version`: v1beta1 spells spec.groups `group`. */
  version: 'v1' | 'v1beta1';
  /** `--authorization-webhook-cache-authorized-ttl` (upstream 5m). */
  authorizedTtlMs: number;
  /** `--authorization-webhook-cache-unauthorized-ttl` (upstream 30s). */
  unauthorizedTtlMs: number;
  attemptTimeoutMs?: number;
  backoff?: WebhookBackoff;
  /** Path to POST to instead of the kubeconfig server's own (delegated authorization posts to the subjectaccessreviews resource). */
  path?: string;
  now?: () => number;
}

/** Upstream's cache size of webhook decisions. */
const CACHE_ENTRIES = 8192;
/** Upstream's maxControlledAttrCacheSize: requests with longer attributes are not cached. */
const MAX_CACHED_ATTRIBUTES = 10_000;

interface ReviewStatus {
  allowed: boolean;
  denied: boolean;
  reason: string;
}

const BOTH = 'webhook subject access review returned both allow and deny response';

export function webhookAuthorizer(opts: WebhookAuthorizerOptions): Authorizer & { close(): void } {
  const client = webhookClient({ connection: opts.connection, attemptTimeoutMs: opts.attemptTimeoutMs, backoff: opts.backoff, path: opts.path });
  const cache = new TtlCache<ReviewStatus>(CACHE_ENTRIES, opts.now);
  /** Reviews on their way, by key: concurrent identical requests share one call. */
  const inFlight = new Map<string, Promise<Authorization>>();
  const apiVersion = `${opts.group}/${opts.version}`;

  const review = async (spec: Record<string, unknown>, key: string, cacheable: boolean): Promise<Authorization> => {
    const reply = await client.post(
      JSON.stringify({ apiVersion, kind: 'SubjectAccessReview', metadata: { creationTimestamp: null }, spec, status: { allowed: false } }),
    );
    if ('error' in reply) return { decision: 'no-opinion', reason: '', error: reply.error };
    const status = statusOf(reply.body);
    if (cacheable) cache.set(key, status, status.allowed ? opts.authorizedTtlMs : opts.unauthorizedTtlMs);
    return decisionOf(status);
  };

  return {
    authorize(attrs) {
      const spec = specOf(attrs, opts.version);
      // The spec's JSON is the key, as upstream; a digest keeps the entry small.
      const key = createHash('sha256').update(JSON.stringify(spec)).digest('base64');
      const hit = cache.get(key);
      if (hit) return decisionOf(hit);
      let pending = inFlight.get(key);
      if (!pending) {
        pending = review(spec, key, controlledSize(attrs) < MAX_CACHED_ATTRIBUTES).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
    rulesFor() {
      return { resourceRules: [], nonResourceRules: [], incomplete: true, error: 'webhook authorizer does not support user rule resolution' };
    },
    close() {
      client.close();
    },
  };
}

/** The review's spec, fields in upstream's order, empty ones left out (omitempty). */
function specOf(attrs: Attributes, version: 'v1' | 'v1beta1'): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  if (attrs.isResourceRequest) {
    spec.resourceAttributes = omitEmpty({
      namespace: attrs.namespace,
      verb: attrs.verb,
      group: attrs.apiGroup,
      version: attrs.apiVersion,
      resource: attrs.resource,
      subresource: attrs.subresource,
      name: attrs.name,
    });
  } else {
    spec.nonResourceAttributes = omitEmpty({ path: attrs.path, verb: attrs.verb });
  }
  const { user } = attrs;
  if (user.name) spec.user = user.name;
  // v1beta1's Go field Groups has the JSON name `group`; v1 fixed it to `groups`.
  if (user.groups.length > 0) spec[version === 'v1beta1' ? 'group' : 'groups'] = user.groups;
  if (user.extra && Object.keys(user.extra).length > 0) spec.extra = user.extra;
  if (user.uid) spec.uid = user.uid;
  return spec;
}

function omitEmpty(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== '') out[k] = v;
  return out;
}

/** Upstream's shouldCache: the request-controlled attributes' total length. */
function controlledSize(a: Attributes): number {
  return (
    a.namespace.length + a.verb.length + a.apiGroup.length + a.apiVersion.length + a.resource.length + a.subresource.length + a.name.length + a.path.length
  );
}

/** The status as upstream decodes it: fields of the wrong type read as Go's zero values. */
function statusOf(body: unknown): ReviewStatus {
  const raw = (body as { status?: unknown } | undefined)?.status;
  const status = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return { allowed: status.allowed === true, denied: status.denied === true, reason: typeof status.reason === 'string' ? status.reason : '' };
}

function decisionOf(s: ReviewStatus): Authorization {
  if (s.denied && s.allowed) return { decision: 'deny', reason: s.reason, error: BOTH };
  if (s.denied) return { decision: 'deny', reason: s.reason };
  if (s.allowed) return { decision: 'allow', reason: s.reason };
  return { decision: 'no-opinion', reason: s.reason };
}
