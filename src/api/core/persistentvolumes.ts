/** PersistentVolume: defaults, exactly one volume source, and a source that never changes. */
import { core } from '../groups.js';
import { decodingDefaults } from './decoding.js';
import { rec } from '../../machinery/fields.js';
import { defaultPersistentVolume } from './persistent-volume-defaults.js';
import { validatePersistentVolumeSpec, validatePersistentVolumeUpdate } from './persistent-volume-validation.js';

export const persistentVolumes = core({
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  shortNames: ['pv'],
  namespaced: false,
  subresources: { status: true },
  strategy: {
    defaults: decodingDefaults(defaultPersistentVolume),
    // The registry reset status; a new volume is Pending.
    prepareForCreate(obj) {
      obj.status = { phase: 'Pending' };
    },
    validate: (obj) => validatePersistentVolumeSpec(rec(obj.spec)),
    validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? [] : validatePersistentVolumeUpdate(obj, old)),
  },
});
