/** LimitRange. */
import { core } from '../groups.js';

export const limitRanges = core({ kind: 'LimitRange', plural: 'limitranges', shortNames: ['limits'], namespaced: true });
