/** PersistentVolumeClaim. */
import { core } from '../groups.js';

export const persistentVolumeClaims = core({
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  shortNames: ['pvc'],
  namespaced: true,
  subresources: { status: true },
});
