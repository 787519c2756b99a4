/**
 * Upstream's AuthenticatedGroupAdder: every authenticated user is also in
 * `system:authenticated`, unless it is anonymous or already names either system group.
 */
import type { UserInfo } from '../../machinery/user.js';
import type { Authenticator } from './authenticator.js';

export const AUTHENTICATED_GROUP = 'system:authenticated';
const UNAUTHENTICATED_GROUP = 'system:unauthenticated';

/** The user as authorization sees it. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === 'system:anonymous') return user;
  if (user.groups.includes(AUTHENTICATED_GROUP) || user.groups.includes(UNAUTHENTICATED_GROUP)) return user;
  return { ...user, groups: [...user.groups, AUTHENTICATED_GROUP] };
}

/** Wraps an authenticator so every user it finds gets the group. */
export function addAuthenticatedGroup(inner: Authenticator): Authenticator {
  return {
    async authenticate(req) {
      const user = await inner.authenticate(req);
      return user ? withAuthenticatedGroup(user) : undefined;
    },
  };
}
