/** ConfigMap. */
import { core } from '../groups.js';

export const configMaps = core({ kind: 'ConfigMap', plural: 'configmaps', shortNames: ['cm'], namespaced: true });
