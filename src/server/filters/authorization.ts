/**
 * Authorization (upstream's WithAuthorization): the request's attributes go to the authorizer
 * chain. Allow proceeds; otherwise an error from any module (a webhook that failed) is 500,
 * else 403 with upstream's message and the modules' reason appended.
 */
import type { Authorizer } from '../../auth/authz/authorizer.js';
import { refusal } from '../../auth/authz/refusal.js';
import type { Attributes, Authorization } from '../../machinery/authorization.js';
import { parseFieldSelector } from '../../machinery/field-selector.js';
import type { Filter, Handler, RequestState } from './chain.js';

export { forbidden, refusal } from '../../auth/authz/refusal.js';

export function withAuthorization(authorizer: Authorizer): Filter {
  return (state, next) => {
    const attrs = attributesOf(state);
    const answer = authorizer.authorize(attrs);
    if ('decision' in answer) return decided(state, attrs, answer, next);
    return answer.then((a) => decided(state, attrs, a, next));
  };
}

/** Proceeds or refuses, leaving the decision and reason on the state for the audit event (upstream's annotations). */
function decided(state: RequestState, attrs: Attributes, a: Authorization, next: Handler): Promise<void> {
  if (a.decision === 'allow') {
    state.authorizationDecision = 'allow';
    state.authorizationReason = a.reason;
    return next(state);
  }
  if (a.error !== undefined) state.authorizationReason = 'internal error';
  else {
    state.authorizationDecision = 'forbid';
    state.authorizationReason = a.reason;
  }
  return Promise.reject(refusal(attrs, a));
}

/** Asks the authorizer; throws the refusal (403, or 500 when a module failed) unless allowed. */
export async function authorizeOrThrow(authorizer: Authorizer, attrs: Attributes): Promise<void> {
  const answer = await authorizer.authorize(attrs);
  if (answer.decision !== 'allow') throw refusal(attrs, answer);
}

/** Upstream's authorizer.Attributes of an authenticated request (audit policies match them too). */
export function attributesOf(state: RequestState): Attributes {
  const { info } = state;
  if (!state.user) throw new Error('authorization before authentication: the filter order is wrong');
  // A non-resource request (`/apis/apps`, `/apis/apps/v1`) has no group or version to upstream,
  // though routing reads them from its path: its 403 says `forbidden: User ... path ...`.
  const resource = info.isResourceRequest;
  return {
    user: state.user,
    verb: info.verb,
    isResourceRequest: resource,
    path: state.path,
    namespace: info.namespace,
    apiGroup: resource ? info.apiGroup : '',
    apiVersion: resource ? info.apiVersion : '',
    resource: info.resource,
    subresource: info.subresource,
    name: info.name === '' ? selectedName(state) : info.name,
  };
}

/**
 * Upstream's RequestInfo names a list or watch by its `metadata.name=` field selector (how a
 * kubelet watches one secret), so a rule or the Node graph can allow it; routing is unaffected.
 */
function selectedName(state: RequestState): string {
  const { info } = state;
  if (!info.isResourceRequest || (info.verb !== 'list' && info.verb !== 'watch')) return '';
  const selector = state.query.get('fieldSelector');
  if (!selector) return '';
  let name: string | undefined;
  try {
    name = parseFieldSelector(selector).requiresExactMatch('metadata.name');
  } catch {
    // An unparsable selector names nothing (upstream resets the options it failed to decode).
    return '';
  }
  // Upstream's IsValidPathSegmentName.
  if (name === undefined || name === '.' || name === '..' || name.includes('/') || name.includes('%')) return '';
  return name;
}
