/** Secret. */
import { core } from '../groups.js';
import { text } from '../define.js';
import type { Obj } from '../../machinery/object.js';

/** Upstream's defaulting: a Secret without a type is `Opaque`. */
function defaultType(obj: Obj): void {
  if (obj.type === undefined || obj.type === '') obj.type = 'Opaque';
}

export const secrets = core({
  kind: 'Secret',
  plural: 'secrets',
  namespaced: true,
  fieldSelectors: { type: text('type') },
  strategy: { prepareForCreate: defaultType, prepareForUpdate: defaultType },
});
