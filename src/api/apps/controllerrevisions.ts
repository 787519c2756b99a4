/** ControllerRevision. */
import { apps } from '../groups.js';

export const controllerRevisions = apps({ kind: 'ControllerRevision', plural: 'controllerrevisions', namespaced: true });
