/** The AlwaysAllow and AlwaysDeny modes (upstream's authorizerfactory): for tests and trusted set-ups. */
import { ALLOW, type Authorization, type Authorizer, NO_RULES } from '../../machinery/authorization.js';

export const alwaysAllow: Authorizer = {
  authorize: () => ALLOW,
  rulesFor: () => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  }),
};

// Upstream's AlwaysDeny gives no opinion with a reason, so a later mode could still allow.
const EVERYTHING_FORBIDDEN: Authorization = Object.freeze({ decision: 'no-opinion', reason: 'Everything is forbidden.' });

export const alwaysDeny: Authorizer = {
  authorize: () => EVERYTHING_FORBIDDEN,
  rulesFor: () => NO_RULES,
};
