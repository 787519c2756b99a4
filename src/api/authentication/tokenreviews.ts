/** TokenReview: authenticates a bearer token on the caller's behalf. */
import { authentication } from '../groups.js';
import { REVIEW } from '../define.js';

export const tokenReviews = authentication({ kind: 'TokenReview', plural: 'tokenreviews', namespaced: false, ...REVIEW });
