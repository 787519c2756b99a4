/**
 * Anonymous requests (`--anonymous-auth`): a request that presents no credential at all is
 * `system:anonymous` in `system:unauthenticated`; one with bad credentials stays 401.
 */
import { ANONYMOUS } from '../../machinery/user.js';
import { type Authenticator, mapMaybe } from './authenticator.js';

/** Upstream's NewFailOnError(methods, anonymous): a failure is final; only no credential is anonymous. */
export function withAnonymous(methods: Authenticator): Authenticator {
  return { authenticate: (req) => mapMaybe(methods.authenticate(req), (user) => user ?? { ...ANONYMOUS, groups: [...ANONYMOUS.groups] }) };
}
