/** LocalSubjectAccessReview: a SubjectAccessReview confined to one namespace. */
import { authorization } from '../groups.js';
import { REVIEW } from '../define.js';

export const localSubjectAccessReviews = authorization({
  kind: 'LocalSubjectAccessReview',
  plural: 'localsubjectaccessreviews',
  namespaced: true,
  ...REVIEW,
});
