/** LimitRange: container defaults filled from max, default and min; bounds validated as upstream's. */
import { core } from '../groups.js';
import { decodingDefaults } from './decoding.js';
import { defaultLimitRange, validateLimitRange } from './limit-range-validation.js';

export const limitRanges = core({
  kind: 'LimitRange',
  plural: 'limitranges',
  shortNames: ['limits'],
  namespaced: true,
  strategy: {
    defaults: decodingDefaults(defaultLimitRange),
    validate: (obj) => validateLimitRange(obj),
    validateUpdate: (obj) => validateLimitRange(obj),
  },
});
