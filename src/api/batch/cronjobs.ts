/** CronJob. */
import { batch } from '../groups.js';

export const cronJobs = batch({
  kind: 'CronJob',
  plural: 'cronjobs',
  shortNames: ['cj'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  behaviour: { generation: true },
});
