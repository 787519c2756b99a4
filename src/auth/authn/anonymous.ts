/**
 * Anonymous requests (`--anonymous-auth`): a request that presents no credential at all is
 * `system:anonymous` in `system:unauthenticated`; one with bad credentials stays 401.
 */
import { ANONYMOUS } from '../../machinery/user.js';
import type { Authenticator } from './authenticator.js';

/** Upstream's NewFailOnError(methods, anonymous): a failure is final; only no credential is anonymous. */
export function withAnonymous(methods: Authenticator): Authenticator {
  return {
    async authenticate(req) {
      const user = await methods.authenticate(req);
      if (user) return user;
      return { ...ANONYMOUS, groups: [...ANONYMOUS.groups] };
    },
  };
}
