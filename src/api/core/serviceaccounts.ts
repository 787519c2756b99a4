/** ServiceAccount. */
import { core } from '../groups.js';

export const serviceAccounts = core({ kind: 'ServiceAccount', plural: 'serviceaccounts', shortNames: ['sa'], namespaced: true, subresources: { token: true } });
