/** ReplicationController. */
import { core } from '../groups.js';
import { count } from '../define.js';

export const replicationControllers = core({
  kind: 'ReplicationController',
  plural: 'replicationcontrollers',
  shortNames: ['rc'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
  fieldSelectors: { 'status.replicas': count('status.replicas') },
});
