/** RuntimeClass. */
import { node } from '../groups.js';

export const runtimeClasses = node({ kind: 'RuntimeClass', plural: 'runtimeclasses', namespaced: false });
