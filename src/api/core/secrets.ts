/** Secret. */
import { core } from '../groups.js';
import { text } from '../define.js';

export const secrets = core({ kind: 'Secret', plural: 'secrets', namespaced: true, fieldSelectors: { type: text('type') } });
