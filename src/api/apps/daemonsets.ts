/** DaemonSet. */
import { apps } from '../groups.js';

export const daemonSets = apps({
  kind: 'DaemonSet',
  plural: 'daemonsets',
  shortNames: ['ds'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
});
