/** CSIDriver. */
import { storage } from '../groups.js';

export const csiDrivers = storage({ kind: 'CSIDriver', plural: 'csidrivers', namespaced: false });
