/**
 * The availability controller's metrics (kube-aggregator's status metrics):
 * `aggregator_unavailable_apiservice{name}` is 1 while an APIService is not Available, else 0,
 * set at every check; `aggregator_unavailable_apiservice_total{name,reason}` counts the checks
 * that found an Available APIService unavailable.
 */
import type { MetricsRegistry } from '../../machinery/metrics.js';

export interface AvailabilityMetrics {
  /** Records a check's result; wasAvailable is the condition before it. */
  checked(name: string, available: boolean, wasAvailable: boolean, reason: string): void;
}

export function availabilityMetrics(registry: MetricsRegistry): AvailabilityMetrics {
  const unavailable = registry.gauge({
    name: 'aggregator_unavailable_apiservice',
    help: 'Gauge of APIServices which are marked as unavailable broken down by APIService name.',
    labels: ['name'],
  });
  const unavailableTotal = registry.counter({
    name: 'aggregator_unavailable_apiservice_total',
    help: 'Counter of APIServices which are marked as unavailable broken down by APIService name and reason.',
    labels: ['name', 'reason'],
  });
  return {
    checked(name, available, wasAvailable, reason) {
      unavailable.set([name], available ? 0 : 1);
      if (wasAvailable && !available) unavailableTotal.inc([name, reason]);
    },
  };
}
