/** ConfigMap: config keys, no key in both data and binaryData, at most 1 MiB, immutable once marked so. */
import { core } from '../groups.js';
import { decodeConfigMap, validateConfigMap, validateConfigMapUpdate } from './config-validation.js';
import { decodingDefaults } from './decoding.js';

export const configMaps = core({
  kind: 'ConfigMap',
  plural: 'configmaps',
  shortNames: ['cm'],
  namespaced: true,
  strategy: {
    defaults: decodingDefaults(decodeConfigMap),
    validate: (obj) => validateConfigMap(obj),
    validateUpdate: (obj, old) => validateConfigMapUpdate(obj, old),
  },
});
