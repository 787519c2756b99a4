/** StatefulSet. */
import { apps } from '../groups.js';

export const statefulSets = apps({
  kind: 'StatefulSet',
  plural: 'statefulsets',
  shortNames: ['sts'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
});
