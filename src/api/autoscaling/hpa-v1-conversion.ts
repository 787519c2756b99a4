/**
 * autoscaling/v1 HorizontalPodAutoscaler <-> v2 (the storage version), as upstream's
 * Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler and back. v1 holds
 * one CPU target; everything else v2 says travels in annotations (upstream's
 * `autoscaling.alpha.kubernetes.io/*`, under the brand's label domain here), so an object read
 * at v1 and written back loses nothing.
 */
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { isSet, type Rec, rec, recOrNil, records, str } from '../../machinery/fields.js';
import { goStructMarshal } from '../../machinery/go-json.js';
import { ownValue, setOwn } from '../../machinery/own-property.js';
import type { Spoke } from '../conversion/kind-conversion.js';
import { isCPUUtilizationTarget, metricSpecFromV1, metricSpecToV1, metricStatusFromV1, metricStatusToV1 } from './hpa-v1-metrics.js';
import { behaviorFromAnnotation, behaviorToAnnotation } from './hpa-behavior-annotation.js';

/** Upstream's DefaultCPUUtilization: the target v1 implied when it named none. */
export const DEFAULT_CPU_UTILIZATION = 80;

/** The round-trip annotation keys (upstream's MetricSpecsAnnotation & co.). */
export function roundTripAnnotations(brand: Brand): { metrics: string; currentMetrics: string; conditions: string; behavior: string } {
  const prefix = `autoscaling.alpha.${brand.labelDomain}`;
  return { metrics: `${prefix}/metrics`, currentMetrics: `${prefix}/current-metrics`, conditions: `${prefix}/conditions`, behavior: `${prefix}/behavior` };
}

const opt = (v: unknown): unknown => (isSet(v) ? v : undefined);

function compact(o: Rec): Rec {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** A JSON list an annotation holds, or undefined when absent or not a list (upstream ignores unreadable ones). */
function annotatedList(annotations: Rec, key: string): Rec[] | undefined {
  const text = ownValue(annotations, key);
  if (typeof text !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? records(parsed) : undefined;
  } catch {
    return undefined;
  }
}

/** metadata with the round-trip annotations removed (and `annotations` dropped when that empties it). */
function withoutRoundTrip(metadata: unknown, keys: ReturnType<typeof roundTripAnnotations>): { metadata: Rec; annotations: Rec } {
  const meta = { ...rec(metadata) };
  const annotations: Rec = {};
  const drop = new Set(Object.values(keys));
  for (const [k, v] of Object.entries(rec(meta.annotations))) if (!drop.has(k)) setOwn(annotations, k, v);
  return { metadata: meta, annotations };
}

function setAnnotations(meta: Rec, annotations: Rec): void {
  if (Object.keys(annotations).length > 0) meta.annotations = annotations;
  else delete meta.annotations;
}

function condition(c: Rec): Rec {
  return compact({
    type: str(c.type),
    status: str(c.status),
    lastTransitionTime: opt(c.lastTransitionTime),
    reason: opt(c.reason) || undefined,
    message: opt(c.message) || undefined,
  });
}

function cpuMetric(utilization: unknown): Rec {
  return { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } };
}

/** v1 -> v2. */
export function hpaV1ToV2(obj: Obj, brand: Brand): Obj {
  const keys = roundTripAnnotations(brand);
  const original = rec(rec(obj.metadata).annotations);
  const { metadata, annotations } = withoutRoundTrip(obj.metadata, keys);
  const spec = rec(obj.spec);
  const status = rec(obj.status);
  let metrics: Rec[] = isSet(spec.targetCPUUtilizationPercentage) ? [cpuMetric(spec.targetCPUUtilizationPercentage)] : [];
  const other = annotatedList(original, keys.metrics);
  if (other !== undefined) metrics = [...other.map(metricSpecFromV1), ...metrics];
  // v1 once implied an 80% CPU target in the controller; v2 states it.
  if (metrics.length === 0) metrics = [cpuMetric(DEFAULT_CPU_UTILIZATION)];
  const behavior = behaviorFromAnnotation(ownValue(original, keys.behavior));
  let currentMetrics: Rec[] | undefined = isSet(status.currentCPUUtilizationPercentage)
    ? [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }]
    : undefined;
  const annotatedCurrent = annotatedList(original, keys.currentMetrics);
  if (annotatedCurrent !== undefined) currentMetrics = annotatedCurrent.map(metricStatusFromV1);
  const conditions = annotatedList(original, keys.conditions)?.map(condition);
  setAnnotations(metadata, annotations);
  const currentReplicas = typeof status.currentReplicas === 'number' && status.currentReplicas !== 0 ? status.currentReplicas : undefined;
  return {
    ...obj,
    metadata,
    spec: compact({
      scaleTargetRef: opt(spec.scaleTargetRef),
      minReplicas: opt(spec.minReplicas),
      maxReplicas: spec.maxReplicas ?? 0,
      metrics,
      behavior,
    }),
    status: compact({
      observedGeneration: opt(status.observedGeneration),
      lastScaleTime: opt(status.lastScaleTime),
      currentReplicas,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentMetrics: currentMetrics?.length ? currentMetrics : undefined,
      conditions: conditions?.length ? conditions : undefined,
    }),
  };
}

/** v2 -> v1. */
export function hpaV2ToV1(obj: Obj, brand: Brand): Obj {
  const keys = roundTripAnnotations(brand);
  const { metadata, annotations } = withoutRoundTrip(obj.metadata, keys);
  const spec = rec(obj.spec);
  const status = rec(obj.status);
  const metrics = records(spec.metrics);
  const cpu = metrics.find(isCPUUtilizationTarget);
  const other = metrics.filter((m) => !isCPUUtilizationTarget(m));
  if (other.length > 0) annotations[keys.metrics] = goStructMarshal(other.map(metricSpecToV1));
  const currentMetrics = records(status.currentMetrics);
  if (currentMetrics.length > 0) annotations[keys.currentMetrics] = goStructMarshal(currentMetrics.map(metricStatusToV1));
  const behavior = recOrNil(spec.behavior);
  if (behavior !== undefined) annotations[keys.behavior] = behaviorToAnnotation(behavior);
  const conditions = records(status.conditions);
  if (conditions.length > 0) annotations[keys.conditions] = goStructMarshal(conditions.map(condition));
  setAnnotations(metadata, annotations);
  // The last CPU utilization status wins, as upstream's loop without a break.
  let currentCPU: unknown;
  for (const m of currentMetrics) {
    const r = recOrNil(m.resource);
    if (str(m.type) === 'Resource' && r !== undefined && str(r.name) === 'cpu' && isSet(rec(r.current).averageUtilization))
      currentCPU = rec(r.current).averageUtilization;
  }
  return {
    ...obj,
    metadata,
    spec: compact({
      scaleTargetRef: opt(spec.scaleTargetRef),
      minReplicas: opt(spec.minReplicas),
      maxReplicas: spec.maxReplicas ?? 0,
      targetCPUUtilizationPercentage: cpu === undefined ? undefined : rec(rec(cpu.resource).target).averageUtilization,
    }),
    status: compact({
      observedGeneration: opt(status.observedGeneration),
      lastScaleTime: opt(status.lastScaleTime),
      currentReplicas: status.currentReplicas ?? 0,
      desiredReplicas: status.desiredReplicas ?? 0,
      currentCPUUtilizationPercentage: currentCPU,
    }),
  };
}

/** The v1 spoke of HorizontalPodAutoscaler. */
export const hpaV1Spoke: Spoke = { toHub: hpaV1ToV2, fromHub: hpaV2ToV1 };
