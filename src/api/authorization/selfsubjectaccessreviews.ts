/** SelfSubjectAccessReview: may the caller do an action? */
import { authorization } from '../groups.js';
import { REVIEW } from '../define.js';

export const selfSubjectAccessReviews = authorization({
  kind: 'SelfSubjectAccessReview',
  plural: 'selfsubjectaccessreviews',
  namespaced: false,
  ...REVIEW,
});
