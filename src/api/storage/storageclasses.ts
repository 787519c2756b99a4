/** StorageClass: reclaimPolicy defaults to Delete and volumeBindingMode to Immediate; upstream's validation. */
import { storage } from '../groups.js';
import { defaultIfUnset } from '../../machinery/defaulting.js';
import { validateStorageClass, validateStorageClassUpdate } from './storage-class-validation.js';

export const storageClasses = storage({
  kind: 'StorageClass',
  plural: 'storageclasses',
  shortNames: ['sc'],
  namespaced: false,
  strategy: {
    defaults(obj) {
      defaultIfUnset(obj, 'reclaimPolicy', 'Delete');
      defaultIfUnset(obj, 'volumeBindingMode', 'Immediate');
    },
    validate: validateStorageClass,
    validateUpdate: validateStorageClassUpdate,
  },
});
