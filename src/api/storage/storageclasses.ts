/** StorageClass. */
import { storage } from '../groups.js';

export const storageClasses = storage({ kind: 'StorageClass', plural: 'storageclasses', shortNames: ['sc'], namespaced: false });
