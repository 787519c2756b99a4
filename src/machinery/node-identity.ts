/**
 * Upstream's default node identifier (pkg/auth/nodeidentifier): who is a kubelet. Shared by the
 * Node authorizer and the NodeRestriction admission plugin, which must agree on it.
 */
import type { UserInfo } from './user.js';

const NODE_USER_PREFIX = 'system:node:';
const NODES_GROUP = 'system:nodes';

/**
 * The node a user speaks for: undefined when the user is not a node (name not
 * `system:node:<name>`, or not in `system:nodes`); '' when it is one whose name is empty.
 */
export function nodeIdentity(user: UserInfo | undefined): string | undefined {
  if (!user?.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return undefined;
  return user.name.slice(NODE_USER_PREFIX.length);
}
