/** Authorization attributes and decisions, as upstream's authorizer.Attributes. */
import type { Authorizer } from '../../machinery/authorization.js';
import type { Attributes } from '../../machinery/authorization.js';

export type { Attributes, Authorizer, Decision } from '../../machinery/authorization.js';

/** Modules in order; the first allow or deny is final; nobody deciding means deny. */
export function unionAuthorizer(modules: Authorizer[]): Authorizer {
  return {
    authorize(attrs) {
      for (const m of modules) {
        const d = m.authorize(attrs);
        if (d !== 'no-opinion') return d;
      }
      return 'deny';
    },
  };
}

/** Members of `system:masters` may do everything, whatever the other modes say (upstream). */
export const privilegedGroupAuthorizer: Authorizer = {
  authorize: (attrs) => (attrs.user.groups.includes('system:masters') ? 'allow' : 'no-opinion'),
};

/** Upstream's forbidden message for a denied request. */
export function forbiddenMessage(attrs: Attributes): string {
  const who = `User "${attrs.user.name}"`;
  if (!attrs.isResourceRequest) return `${who} cannot ${attrs.verb} path "${attrs.path}"`;
  const res = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const scope = attrs.namespace ? ` in the namespace "${attrs.namespace}"` : ' at the cluster scope';
  return `${who} cannot ${attrs.verb} resource "${res}" in API group "${attrs.apiGroup}"${scope}`;
}
