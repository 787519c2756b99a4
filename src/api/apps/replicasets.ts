/** ReplicaSet. */
import { apps } from '../groups.js';
import { count } from '../define.js';

export const replicaSets = apps({
  kind: 'ReplicaSet',
  plural: 'replicasets',
  shortNames: ['rs'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
  fieldSelectors: { 'status.replicas': count('status.replicas') },
});
