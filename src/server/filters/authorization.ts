/** Authorization: the request's attributes go to the authorizer; anything but allow is 403. */
import { type Authorizer, forbiddenMessage } from '../../auth/authz/authorizer.js';
import type { Attributes } from '../../machinery/authorization.js';
import { StatusError } from '../../machinery/status.js';
import type { Filter, RequestState } from './chain.js';

export function withAuthorization(authorizer: Authorizer): Filter {
  return (state, next) => {
    const attrs = attributesOf(state);
    const decision = authorizer.authorize(attrs);
    if (decision !== 'allow') return Promise.reject(forbidden(attrs));
    return next(state);
  };
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

/** Upstream's 403: `<resource>.<group> "<name>" is forbidden: User "u" cannot ...`. */
export function forbidden(attrs: Attributes): StatusError {
  const message = attrs.isResourceRequest
    ? `${attrs.apiGroup ? `${attrs.resource}.${attrs.apiGroup}` : attrs.resource}${attrs.name ? ` "${attrs.name}"` : ''} is forbidden: ${forbiddenMessage(attrs)}`
    : `forbidden: ${forbiddenMessage(attrs)}`;
  return new StatusError(403, 'Forbidden', message, { name: attrs.name, group: attrs.apiGroup || undefined, kind: attrs.resource || undefined });
}
