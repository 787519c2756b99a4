/** SubjectAccessReview: may any user do an action? */
import { authorization } from '../groups.js';
import { REVIEW } from '../define.js';

export const subjectAccessReviews = authorization({ kind: 'SubjectAccessReview', plural: 'subjectaccessreviews', namespaced: false, ...REVIEW });
