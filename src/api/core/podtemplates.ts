/** PodTemplate. */
import { core } from '../groups.js';

export const podTemplates = core({ kind: 'PodTemplate', plural: 'podtemplates', namespaced: true });
