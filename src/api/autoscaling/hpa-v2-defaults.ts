/**
 * Upstream's SetDefaults_HorizontalPodAutoscaler of autoscaling/v2 (and v2beta2, the same):
 * minReplicas 1, an 80% CPU utilization target when no metric is named, and a stated behavior's
 * unset parts filled from the default scale-up and scale-down rules.
 */
import type { Obj } from '../../machinery/object.js';
import { type Rec, child, isSet, recOrNil } from '../../machinery/fields.js';
import { defaultIfUnset } from '../../machinery/defaulting.js';
import { DEFAULT_CPU_UTILIZATION } from './hpa-v1-conversion.js';

function defaultScaleUp(): Rec {
  return {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Max',
    policies: [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ],
  };
}

/** Scale-down leaves the window unset: the controller's --horizontal-pod-autoscaler-downscale-stabilization decides. */
function defaultScaleDown(): Rec {
  return { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
}

/** Upstream's copyHPAScalingRules over a fresh copy of the defaults, in v2's field order. */
function fill(rules: Rec | undefined, defaults: Rec): Rec {
  if (rules === undefined) return defaults;
  const out: Rec = {};
  const window = isSet(rules.stabilizationWindowSeconds) ? rules.stabilizationWindowSeconds : defaults.stabilizationWindowSeconds;
  if (window !== undefined) out.stabilizationWindowSeconds = window;
  out.selectPolicy = isSet(rules.selectPolicy) ? rules.selectPolicy : defaults.selectPolicy;
  out.policies = Array.isArray(rules.policies) ? rules.policies : defaults.policies;
  return out;
}

/** Defaults a v2 (or v2beta2) HorizontalPodAutoscaler in place. */
export function defaultHorizontalPodAutoscalerV2(obj: Obj): void {
  const spec = child(obj, 'spec');
  defaultIfUnset(spec, 'minReplicas', 1);
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  const behavior = recOrNil(spec.behavior);
  if (behavior !== undefined) {
    behavior.scaleUp = fill(recOrNil(behavior.scaleUp), defaultScaleUp());
    behavior.scaleDown = fill(recOrNil(behavior.scaleDown), defaultScaleDown());
  }
}
