/** ComponentStatus: read-only health of control-plane components. */
import { core } from '../groups.js';

export const componentStatuses = core({
  kind: 'ComponentStatus',
  plural: 'componentstatuses',
  shortNames: ['cs'],
  namespaced: false,
  verbs: ['get', 'list'],
});
