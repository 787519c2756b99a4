/**
 * Authorization (upstream's WithAuthorization): the request's attributes go to the authorizer
 * chain. Allow proceeds; otherwise an error from any module (a webhook that failed) is 500,
 * else 403 with upstream's message and the modules' reason appended.
 */
import type { Authorizer } from '../../auth/authz/authorizer.js';
import { refusal } from '../../auth/authz/refusal.js';
import type { Attributes } from '../../machinery/authorization.js';
import type { Filter, RequestState } from './chain.js';

export { forbidden, refusal } from '../../auth/authz/refusal.js';

export function withAuthorization(authorizer: Authorizer): Filter {
  return (state, next) => {
    const attrs = attributesOf(state);
    const answer = authorizer.authorize(attrs);
    if ('decision' in answer) return answer.decision === 'allow' ? next(state) : Promise.reject(refusal(attrs, answer));
    return answer.then((a) => (a.decision === 'allow' ? next(state) : Promise.reject(refusal(attrs, a))));
  };
}

/** Asks the authorizer; throws the refusal (403, or 500 when a module failed) unless allowed. */
export async function authorizeOrThrow(authorizer: Authorizer, attrs: Attributes): Promise<void> {
  const answer = await authorizer.authorize(attrs);
  if (answer.decision !== 'allow') throw refusal(attrs, answer);
}

/** Upstream's authorizer.Attributes of an authenticated request. */
function attributesOf(state: RequestState): Attributes {
  const { info } = state;
  if (!state.user) throw new Error('authorization before authentication: the filter order is wrong');
  return {
    user: state.user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: state.path,
    namespace: info.namespace,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}
