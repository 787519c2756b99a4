/** CSINode. */
import { storage } from '../groups.js';

export const csiNodes = storage({ kind: 'CSINode', plural: 'csinodes', namespaced: false });
