/** PodDisruptionBudget (policy/v1). */
import { policy } from '../groups.js';

export const podDisruptionBudgets = policy({
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  shortNames: ['pdb'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
});
