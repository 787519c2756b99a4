/** Lease. */
import { coordination } from '../groups.js';

export const leases = coordination({ kind: 'Lease', plural: 'leases', namespaced: true });
