/** SelfSubjectRulesReview: what may the caller do in a namespace? */
import { authorization } from '../groups.js';
import { REVIEW } from '../define.js';

export const selfSubjectRulesReviews = authorization({
  kind: 'SelfSubjectRulesReview',
  plural: 'selfsubjectrulesreviews',
  namespaced: false,
  ...REVIEW,
});
