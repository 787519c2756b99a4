/**
 * SelfSubjectReview: who does the server take the caller for (`kubectl auth whoami`)? Upstream
 * serves it from 1.26 (v1alpha1, alpha: off unless --runtime-config turns it on), 1.27 (v1beta1)
 * and 1.28 (v1); orch serves all three so every kubectl from 1.27 finds the one it asks for.
 */
import { apiGroup, REVIEW } from '../define.js';

const SPEC = { kind: 'SelfSubjectReview', plural: 'selfsubjectreviews', namespaced: false, ...REVIEW } as const;

export const selfSubjectReviews = apiGroup('authentication', 'v1')(SPEC);
export const selfSubjectReviewsV1beta1 = apiGroup('authentication', 'v1beta1')(SPEC);
export const selfSubjectReviewsV1alpha1 = apiGroup('authentication', 'v1alpha1')(SPEC);
