/** PersistentVolumeClaim: defaults, and a spec that is immutable but for growing a bound claim's request. */
import { core } from '../groups.js';
import { decodingDefaults } from './decoding.js';
import { rec } from '../../machinery/fields.js';
import { defaultPersistentVolumeClaim } from './persistent-volume-defaults.js';
import {
  validatePersistentVolumeClaimSpec,
  validatePersistentVolumeClaimStatusUpdate,
  validatePersistentVolumeClaimUpdate,
} from './persistent-volume-validation.js';

export const persistentVolumeClaims = core({
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  shortNames: ['pvc'],
  namespaced: true,
  subresources: { status: true },
  strategy: {
    defaults: decodingDefaults(defaultPersistentVolumeClaim),
    // The registry reset status; a new claim is Pending (upstream's defaults on read say so too).
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending' };
    },
    validate: (obj) => validatePersistentVolumeClaimSpec(rec(obj.spec), 'spec'),
    validateUpdate: (obj, old, ctx) =>
      ctx.subresource === 'status' ? validatePersistentVolumeClaimStatusUpdate(obj) : validatePersistentVolumeClaimUpdate(obj, old, ctx.brand),
  },
});
