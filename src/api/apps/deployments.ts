/** Deployment. */
import { apps } from '../groups.js';

export const deployments = apps({
  kind: 'Deployment',
  plural: 'deployments',
  shortNames: ['deploy'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
});
