/**
 * HorizontalPodAutoscaler (autoscaling/v1): minReplicas defaults to 1; upstream's validation
 * (1.25), which runs on the internal form, so the v1 CPU target is reported at
 * `spec.metrics[0].resource.target.averageUtilization`. Names follow the replication-controller
 * rule (DNS subdomain).
 */
import { defaultIfUnset, resetStatus } from '../../machinery/defaulting.js';
import type { Obj } from '../../machinery/object.js';
import { type FieldError, invalid, required } from '../../machinery/status.js';
import { isValidPathSegmentName } from '../../machinery/validation.js';
import { child, num, numOrNil, rec, str } from '../../machinery/fields.js';
import { validateNonnegativeField } from '../core/value-validation.js';
import { autoscaling } from '../groups.js';

/** The lowest minReplicas while the HPAScaleToZero gate is off (as in 1.25). */
const MIN_REPLICAS_LOWER_BOUND = 1;

/** Upstream's ValidateCrossVersionObjectReference. */
function scaleTargetRefErrors(ref: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name']) {
    const v = str(ref[key]);
    const path = `spec.scaleTargetRef.${key}`;
    if (v === '') errs.push(required(path, ''));
    else errs.push(...isValidPathSegmentName(v).map((m) => invalid(path, v, m)));
  }
  return errs;
}

/** Upstream's validateHorizontalPodAutoscalerSpec on the v1 spec. */
export function validateHorizontalPodAutoscaler(obj: Obj): FieldError[] {
  const spec = rec(obj.spec);
  const errs: FieldError[] = [];
  const min = numOrNil(spec.minReplicas);
  const max = num(spec.maxReplicas);
  if (min !== undefined && min < MIN_REPLICAS_LOWER_BOUND) {
    errs.push(invalid('spec.minReplicas', min, `must be greater than or equal to ${MIN_REPLICAS_LOWER_BOUND}`));
  }
  if (max < 1) errs.push(invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...scaleTargetRefErrors(rec(spec.scaleTargetRef)));
  // v1's CPU target converts to the first metric's average utilization.
  const cpu = numOrNil(spec.targetCPUUtilizationPercentage);
  if (cpu !== undefined && cpu < 1) errs.push(invalid('spec.metrics[0].resource.target.averageUtilization', cpu, 'must be greater than 0'));
  return errs;
}

/** Upstream's ValidateHorizontalPodAutoscalerStatusUpdate. */
export function validateHorizontalPodAutoscalerStatus(obj: Obj): FieldError[] {
  const status = rec(obj.status);
  return [
    ...validateNonnegativeField(num(status.currentReplicas), 'status.currentReplicas'),
    ...validateNonnegativeField(num(status.desiredReplicas), 'status.desiredReplicas'),
  ];
}

export const horizontalPodAutoscalers = autoscaling({
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  shortNames: ['hpa'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
  strategy: {
    defaults: (obj) => defaultIfUnset(child(obj, 'spec'), 'minReplicas', 1),
    // The v1 status's two replica counts are not omitempty.
    prepareForCreate: (obj) => resetStatus(obj, { currentReplicas: 0, desiredReplicas: 0 }),
    validate: validateHorizontalPodAutoscaler,
    validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? validateHorizontalPodAutoscalerStatus(obj) : validateHorizontalPodAutoscaler(obj)),
  },
});
