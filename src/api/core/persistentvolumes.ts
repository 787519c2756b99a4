/** PersistentVolume. */
import { core } from '../groups.js';

export const persistentVolumes = core({
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  shortNames: ['pv'],
  namespaced: false,
  subresources: { status: true },
});
