/** PriorityClass: preemptionPolicy defaults to PreemptLowerPriority; upstream's validation. */
import { scheduling } from '../groups.js';
import { validatePriorityClass, validatePriorityClassUpdate } from './priority-class-validation.js';

export const priorityClasses = scheduling({
  kind: 'PriorityClass',
  plural: 'priorityclasses',
  shortNames: ['pc'],
  namespaced: false,
  strategy: {
    defaults(obj) {
      if (obj.preemptionPolicy === undefined || obj.preemptionPolicy === null) obj.preemptionPolicy = 'PreemptLowerPriority';
    },
    validate: validatePriorityClass,
    validateUpdate: validatePriorityClassUpdate,
  },
});
