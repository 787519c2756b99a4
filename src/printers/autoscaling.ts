/**
 * Printers of the autoscaling group. Upstream prints the internal (v2) object whatever version
 * was asked for, so an object of another version (v1 with its CPU target and alpha metrics
 * annotations) is first converted to v2.
 */
import type { Brand } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { AUTOSCALING_V2BETA1 } from './descriptions.js';
import { isSetAt, listAt, numAt, numOrNilAt, strAt, valueAt } from '../machinery/fields.js';
import { versionOf } from '../api/conversion/kind-conversion.js';
import { horizontalPodAutoscalerConversion } from '../api/autoscaling/horizontalpodautoscalers.js';
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

/** A v2 MetricTarget or MetricValueStatus. */
function metricValue(v: unknown): MetricValue {
  return { value: quantityAt(v, 'value'), averageValue: quantityAt(v, 'averageValue'), averageUtilization: numOrNilAt(v, 'averageUtilization') };
}

/** A v2 metric (spec or status: `target` or `current`). */
function metricFromV2(m: unknown, field: 'target' | 'current'): Metric {
  const sources: Metric['sources'] = {};
  for (const source of SOURCES) if (isSetAt(m, source)) sources[source] = metricValue(valueAt(m, `${source}.${field}`));
  return { type: strAt(m, 'type'), sources };
}

/** The object in its v2 form: the printer reads what upstream's reads, the internal (v2) fields. */
function asV2(hpa: Obj, brand: Brand): Obj {
  const version = versionOf(hpa.apiVersion);
  const kc = horizontalPodAutoscalerConversion;
  return kc.versions.includes(version) ? kc.convert(hpa, version, 'v2', brand) : hpa;
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
    rows: (served, now) => {
      const hpa = asV2(served, brand);
      const min = numOrNilAt(hpa, 'spec.minReplicas');
      return [
        [
          nameOf(hpa),
          `${strAt(hpa, 'spec.scaleTargetRef.kind')}/${strAt(hpa, 'spec.scaleTargetRef.name')}`,
          formatHPAMetrics(
            listAt(hpa, 'spec.metrics').map((m) => metricFromV2(m, 'target')),
            listAt(hpa, 'status.currentMetrics').map((m) => metricFromV2(m, 'current')),
          ),
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
