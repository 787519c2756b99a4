/** HorizontalPodAutoscaler (names follow the replication-controller rule: DNS subdomain). */
import { autoscaling } from '../groups.js';

export const horizontalPodAutoscalers = autoscaling({
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  shortNames: ['hpa'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
});
