/**
 * Printers of the autoscaling group. A v1 HorizontalPodAutoscaler carries its CPU target in
 * spec.targetCPUUtilizationPercentage and any other metrics in the alpha metrics annotations;
 * this reads them back into the metric list upstream's printer formats, as its v1 conversion
 * does (annotation metrics first, the CPU target last; annotation statuses replace the CPU one).
 */
import type { Brand } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { AUTOSCALING_V2BETA1 } from './descriptions.js';
import { isSetAt, numAt, numOrNilAt, strAt, stringMapAt, valueAt } from '../machinery/fields.js';
import { ageOf, nameOf, quantityText } from './format.js';
import type { TablePrinter } from './types.js';

/** A metric source's target (spec) or current value (status); undefined fields are nil pointers. */
interface MetricValue {
  value?: string;
  averageValue?: string;
  averageUtilization?: number;
}

type MetricSource = 'resource' | 'containerResource' | 'pods' | 'object' | 'external';

/** A metric in upstream's internal (v2) shape: its type and whichever sources are set. */
interface Metric {
  type: string;
  sources: Partial<Record<MetricSource, MetricValue>>;
}

const SOURCES: readonly MetricSource[] = ['resource', 'containerResource', 'pods', 'object', 'external'];

function quantityAt(obj: unknown, path: string): string | undefined {
  return isSetAt(obj, path) ? quantityText(valueAt(obj, path)) : undefined;
}

/** The internal target of a v1 MetricSpec source (v1 names its fields target*). */
function targetFromV1(source: MetricSource, s: unknown): MetricValue {
  switch (source) {
    case 'resource':
    case 'containerResource':
      return { averageValue: quantityAt(s, 'targetAverageValue'), averageUtilization: numOrNilAt(s, 'targetAverageUtilization') };
    case 'pods':
      return { averageValue: quantityText(valueAt(s, 'targetAverageValue')) };
    case 'object':
      return { value: quantityText(valueAt(s, 'targetValue')), averageValue: quantityAt(s, 'averageValue') };
    case 'external':
      return { value: quantityAt(s, 'targetValue'), averageValue: quantityAt(s, 'targetAverageValue') };
  }
}

/** The internal current value of a v1 MetricStatus source (v1 names its fields current*). */
function currentFromV1(source: MetricSource, s: unknown): MetricValue {
  switch (source) {
    case 'resource':
    case 'containerResource':
      return { averageValue: quantityText(valueAt(s, 'currentAverageValue')), averageUtilization: numOrNilAt(s, 'currentAverageUtilization') };
    case 'pods':
      return { averageValue: quantityText(valueAt(s, 'currentAverageValue')) };
    case 'object':
      return { value: quantityText(valueAt(s, 'currentValue')), averageValue: quantityAt(s, 'averageValue') };
    case 'external':
      return { value: quantityText(valueAt(s, 'currentValue')), averageValue: quantityAt(s, 'currentAverageValue') };
  }
}

function metricFromV1(m: unknown, convert: (source: MetricSource, s: unknown) => MetricValue): Metric {
  const sources: Metric['sources'] = {};
  for (const source of SOURCES) if (isSetAt(m, source)) sources[source] = convert(source, valueAt(m, source));
  return { type: strAt(m, 'type'), sources };
}

/** The JSON list in an annotation, or undefined when absent or unreadable. */
function annotationList(hpa: Obj, key: string): unknown[] | undefined {
  const text = stringMapAt(hpa, 'metadata.annotations')[key];
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function specMetrics(hpa: Obj, brand: Brand): Metric[] {
  const metrics = (annotationList(hpa, `autoscaling.alpha.${brand.labelDomain}/metrics`) ?? []).map((m) => metricFromV1(m, targetFromV1));
  const cpu = numOrNilAt(hpa, 'spec.targetCPUUtilizationPercentage');
  if (cpu !== undefined) metrics.push({ type: 'Resource', sources: { resource: { averageUtilization: cpu } } });
  return metrics;
}

function statusMetrics(hpa: Obj, brand: Brand): Metric[] {
  const annotated = annotationList(hpa, `autoscaling.alpha.${brand.labelDomain}/current-metrics`);
  if (annotated !== undefined) return annotated.map((m) => metricFromV1(m, currentFromV1));
  const cpu = numOrNilAt(hpa, 'status.currentCPUUtilizationPercentage');
  return cpu === undefined ? [] : [{ type: 'Resource', sources: { resource: { averageUtilization: cpu } } }];
}

/** Quantity.String() of a possibly nil *Quantity. */
function q(value: string | undefined): string {
  return value ?? '<nil>';
}

function percent(utilization: number | undefined, absent: string): string {
  return utilization === undefined ? absent : `${utilization}%`;
}

/** "current/target" of one metric; current is "<unknown>" while status i lacks the source. */
function formatMetric(spec: Metric, status: Metric | undefined): string {
  const read = (source: MetricSource): MetricValue | undefined => status?.sources[source];
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const source: MetricSource = spec.type === 'External' ? 'external' : 'object';
      const target = spec.sources[source] ?? {};
      const cur = read(source);
      if (target.averageValue !== undefined) return `${cur?.averageValue ?? '<unknown>'}/${target.averageValue} (avg)`;
      return `${cur === undefined ? '<unknown>' : q(cur.value)}/${q(target.value)}`;
    }
    case 'Pods': {
      const cur = read('pods');
      return `${cur === undefined ? '<unknown>' : q(cur.averageValue)}/${q(spec.sources.pods?.averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const source: MetricSource = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const target = spec.sources[source] ?? {};
      const cur = read(source);
      if (target.averageValue !== undefined) return `${cur === undefined ? '<unknown>' : q(cur.averageValue)}/${target.averageValue}`;
      return `${percent(cur?.averageUtilization, '<unknown>')}/${percent(target.averageUtilization, '<auto>')}`;
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: the first two metrics, then "+ N more..."; "<none>" without metrics. */
function formatHPAMetrics(specs: readonly Metric[], statuses: readonly Metric[]): string {
  if (specs.length === 0) return '<none>';
  const max = 2;
  const shown = specs.slice(0, max).map((spec, i) => formatMetric(spec, statuses[i]));
  return specs.length > max ? `${shown.join(', ')} + ${specs.length - max} more...` : shown.join(', ');
}

function horizontalPodAutoscalerPrinter(brand: Brand): TablePrinter {
  return {
    columns: [
      NAME_COLUMN,
      column('Reference', 'string', AUTOSCALING_V2BETA1['HorizontalPodAutoscalerSpec.scaleTargetRef']),
      column('Targets', 'string', AUTOSCALING_V2BETA1['HorizontalPodAutoscalerSpec.metrics']),
      column('MinPods', 'string', AUTOSCALING_V2BETA1['HorizontalPodAutoscalerSpec.minReplicas']),
      column('MaxPods', 'string', AUTOSCALING_V2BETA1['HorizontalPodAutoscalerSpec.maxReplicas']),
      column('Replicas', 'string', AUTOSCALING_V2BETA1['HorizontalPodAutoscalerStatus.currentReplicas']),
      AGE_COLUMN,
    ],
    rows: (hpa, now) => {
      const min = numOrNilAt(hpa, 'spec.minReplicas');
      return [
        [
          nameOf(hpa),
          `${strAt(hpa, 'spec.scaleTargetRef.kind')}/${strAt(hpa, 'spec.scaleTargetRef.name')}`,
          formatHPAMetrics(specMetrics(hpa, brand), statusMetrics(hpa, brand)),
          min === undefined ? '<unset>' : String(min),
          numAt(hpa, 'spec.maxReplicas'),
          numAt(hpa, 'status.currentReplicas'),
          ageOf(hpa, now),
        ],
      ];
    },
  };
}

/** The autoscaling group's printers by kind. */
export function autoscalingPrinters(brand: Brand): Record<string, TablePrinter> {
  return { HorizontalPodAutoscaler: horizontalPodAutoscalerPrinter(brand) };
}
