/** Job. */
import { batch } from '../groups.js';
import { count } from '../define.js';

export const jobs = batch({
  kind: 'Job',
  plural: 'jobs',
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
  fieldSelectors: { 'status.successful': count('status.succeeded') },
});
