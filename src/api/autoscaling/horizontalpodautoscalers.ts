/**
 * HorizontalPodAutoscaler, served as 1.25 serves it: autoscaling/v2 (stored, preferred),
 * autoscaling/v1 and the deprecated autoscaling/v2beta2. Each version defaults as its own
 * SetDefaults_* does; validation is upstream's (1.25), which runs on the internal (= v2) form, so
 * a v1 CPU target is reported at `spec.metrics[0].resource.target.averageUtilization`. Names
 * follow the path-segment rule.
 */
import { defaultIfUnset, resetStatus } from '../../machinery/defaulting.js';
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { type FieldError, invalid } from '../../machinery/status.js';
import { child, num, numOrNil, rec } from '../../machinery/fields.js';
import { validateNonnegativeField } from '../core/value-validation.js';
import { apiGroup, type ResourceSpec } from '../define.js';
import type { ResourceDefinition, Strategy } from '../types.js';
import { asVersionOf, hubAndSpokes } from '../conversion/kind-conversion.js';
import { hpaV1Spoke, hpaV1ToV2 } from './hpa-v1-conversion.js';
import { defaultHorizontalPodAutoscalerV2 } from './hpa-v2-defaults.js';
import { validateBehavior, validateCrossVersionObjectReference, validateMetrics } from './hpa-metrics-validation.js';
import { v2beta2Spoke } from './hpa-v2beta2-conversion.js';

/** The lowest minReplicas while the HPAScaleToZero gate is off (as in 1.25). */
const MIN_REPLICAS_LOWER_BOUND = 1;

/** Upstream's validateHorizontalPodAutoscalerSpec on the v2 spec. */
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
  errs.push(...validateCrossVersionObjectReference(rec(spec.scaleTargetRef), 'spec.scaleTargetRef'));
  errs.push(...validateMetrics(spec.metrics, min), ...validateBehavior(spec.behavior));
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

/** The conversion capability of HorizontalPodAutoscaler: v2 is the hub (and the storage version). */
export const horizontalPodAutoscalerConversion = hubAndSpokes('autoscaling', false, 'HorizontalPodAutoscaler', 'v2', { v1: hpaV1Spoke, v2beta2: v2beta2Spoke });

/** A strategy whose checks run on the v2 form of the version's objects. */
function strategyFor(toV2: (obj: Obj, brand: Brand) => Obj, defaults: Strategy['defaults'], zeroStatus: Record<string, unknown>): Strategy {
  return {
    defaults,
    prepareForCreate: (obj) => resetStatus(obj, { ...zeroStatus }),
    validate: (obj, ctx) => validateHorizontalPodAutoscaler(toV2(obj, ctx.brand)),
    validateUpdate: (obj, _old, ctx) =>
      ctx.subresource === 'status' ? validateHorizontalPodAutoscalerStatus(obj) : validateHorizontalPodAutoscaler(toV2(obj, ctx.brand)),
  };
}

const COMMON: Omit<ResourceSpec, 'version'> = {
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  shortNames: ['hpa'],
  categories: ['all'],
  namespaced: true,
  subresources: { status: true },
};

const sameForm = (obj: Obj): Obj => obj;

function version(v: string, spec: Partial<ResourceSpec>): ResourceDefinition {
  return asVersionOf(horizontalPodAutoscalerConversion, apiGroup('autoscaling', v)({ ...COMMON, ...spec }));
}

/** autoscaling/v2: the storage version. Its status's currentReplicas is omitempty. */
export const horizontalPodAutoscalers = version('v2', { strategy: strategyFor(sameForm, defaultHorizontalPodAutoscalerV2, { desiredReplicas: 0 }) });

/** autoscaling/v1: one CPU target; SetDefaults_HorizontalPodAutoscaler defaults only minReplicas. */
export const horizontalPodAutoscalersV1 = version('v1', {
  strategy: strategyFor(hpaV1ToV2, (obj) => defaultIfUnset(child(obj, 'spec'), 'minReplicas', 1), { currentReplicas: 0, desiredReplicas: 0 }),
});

/** autoscaling/v2beta2: v2's shape and defaults; deprecated in 1.23, gone in 1.26. */
export const horizontalPodAutoscalersV2beta2 = version('v2beta2', {
  strategy: strategyFor(sameForm, defaultHorizontalPodAutoscalerV2, { currentReplicas: 0, desiredReplicas: 0 }),
  lifecycle: { deprecated: '1.23', removed: '1.26', replacement: { groupStem: 'autoscaling', branded: false, version: 'v2', kind: 'HorizontalPodAutoscaler' } },
});
