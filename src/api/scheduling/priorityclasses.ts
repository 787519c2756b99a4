/** PriorityClass. */
import { scheduling } from '../groups.js';

export const priorityClasses = scheduling({ kind: 'PriorityClass', plural: 'priorityclasses', shortNames: ['pc'], namespaced: false });
