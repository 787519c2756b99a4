/**
 * Anonymous requests (`--anonymous-auth`): a request that presents no credential at all is
 * `system:anonymous` in `system:unauthenticated`; one with bad credentials stays 401.
 */
import { ANONYMOUS, type UserInfo } from '../../machinery/user.js';
import { type Authenticator, mapMaybe } from './authenticator.js';

/** Upstream's NewFailOnError(methods, anonymous): a failure is final; only no credential is anonymous. */
export function withAnonymous(methods: Authenticator): Authenticator {
  return { authenticate: (req) => mapMaybe(methods.authenticate(req), orAnonymous) };
}

/** The user found, or a fresh anonymous one (callers may adorn it). */
function orAnonymous(user: UserInfo | undefined): UserInfo {
  return user ?? { ...ANONYMOUS, groups: [...ANONYMOUS.groups] };
}
