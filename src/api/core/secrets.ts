/**
 * Secret: type Opaque by default and stringData folded into data (upstream's v1 decoding);
 * config keys, at most 1 MiB, the keys each well-known type requires; the type never changes.
 */
import { core } from '../groups.js';
import { text } from '../define.js';
import { defaultSecret, validateSecret, validateSecretUpdate } from './config-validation.js';
import { decodingDefaults } from './decoding.js';

export const secrets = core({
  kind: 'Secret',
  plural: 'secrets',
  namespaced: true,
  fieldSelectors: { type: text('type') },
  strategy: {
    defaults: decodingDefaults(defaultSecret),
    validate: (obj, ctx) => validateSecret(obj, ctx.brand),
    validateUpdate: (obj, old, ctx) => validateSecretUpdate(obj, old, ctx.brand),
  },
});
