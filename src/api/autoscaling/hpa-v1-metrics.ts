/**
 * autoscaling/v1 MetricSpec / MetricStatus <-> the v2 (internal) forms, as upstream's
 * pkg/apis/autoscaling/v1/conversion.go. v1 has no metric list of its own: these shapes only
 * appear JSON-encoded in the round-trip annotations. Keys are in Go struct order; a v1
 * non-pointer Quantity that the v2 object lacks is written as Go writes a zero Quantity ("0").
 */
import type { Rec } from '../../machinery/fields.js';
import { isSet, rec, recOrNil, str } from '../../machinery/fields.js';

const ZERO = '0';

/** Drops undefined values, so absent pointers stay absent (Go's omitempty on nil). */
function compact(o: Rec): Rec {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

const opt = (v: unknown): unknown => (isSet(v) ? v : undefined);

function reference(r: unknown): Rec {
  const ref = rec(r);
  return compact({ kind: str(ref.kind), name: str(ref.name), apiVersion: opt(ref.apiVersion) || undefined });
}

/** v2 MetricSpec -> v1 MetricSpec. */
export function metricSpecToV1(m: Rec): Rec {
  const out: Rec = { type: str(m.type) };
  const o = recOrNil(m.object);
  if (o) {
    const t = rec(o.target);
    const id = rec(o.metric);
    out.object = compact({
      target: reference(o.describedObject),
      metricName: str(id.name),
      targetValue: opt(t.value) ?? ZERO,
      selector: opt(id.selector),
      averageValue: opt(t.averageValue),
    });
  }
  const p = recOrNil(m.pods);
  if (p) {
    const id = rec(p.metric);
    out.pods = compact({ metricName: str(id.name), targetAverageValue: opt(rec(p.target).averageValue) ?? ZERO, selector: opt(id.selector) });
  }
  const r = recOrNil(m.resource);
  if (r) {
    const t = rec(r.target);
    out.resource = compact({ name: str(r.name), targetAverageUtilization: opt(t.averageUtilization), targetAverageValue: opt(t.averageValue) });
  }
  const c = recOrNil(m.containerResource);
  if (c) {
    const t = rec(c.target);
    out.containerResource = compact({
      name: str(c.name),
      targetAverageUtilization: opt(t.averageUtilization),
      targetAverageValue: opt(t.averageValue),
      container: str(c.container),
    });
  }
  const e = recOrNil(m.external);
  if (e) {
    const t = rec(e.target);
    const id = rec(e.metric);
    out.external = compact({ metricName: str(id.name), metricSelector: opt(id.selector), targetValue: opt(t.value), targetAverageValue: opt(t.averageValue) });
  }
  return out;
}

function identifier(name: unknown, selector: unknown): Rec {
  return compact({ name: str(name), selector: opt(selector) });
}

/** v1 MetricSpec -> v2 MetricSpec (the target type follows which v1 field is set). */
export function metricSpecFromV1(m: Rec): Rec {
  const out: Rec = { type: str(m.type) };
  const o = recOrNil(m.object);
  if (o) {
    const average = opt(o.averageValue);
    out.object = {
      describedObject: reference(o.target),
      target: compact({ type: average === undefined ? 'Value' : 'AverageValue', value: opt(o.targetValue) ?? ZERO, averageValue: average }),
      metric: identifier(o.metricName, o.selector),
    };
  }
  const p = recOrNil(m.pods);
  if (p) out.pods = { metric: identifier(p.metricName, p.selector), target: { type: 'AverageValue', averageValue: opt(p.targetAverageValue) ?? ZERO } };
  const r = recOrNil(m.resource);
  if (r) out.resource = { name: str(r.name), target: resourceTarget(r) };
  const c = recOrNil(m.containerResource);
  if (c) out.containerResource = { name: str(c.name), target: resourceTarget(c), container: str(c.container) };
  const e = recOrNil(m.external);
  if (e) {
    const value = opt(e.targetValue);
    out.external = {
      metric: identifier(e.metricName, e.metricSelector),
      target: compact({ type: value === undefined ? 'AverageValue' : 'Value', value, averageValue: opt(e.targetAverageValue) }),
    };
  }
  return out;
}

function resourceTarget(s: Rec): Rec {
  const utilization = opt(s.targetAverageUtilization);
  return compact({
    type: utilization === undefined ? 'AverageValue' : 'Utilization',
    averageValue: opt(s.targetAverageValue),
    averageUtilization: utilization,
  });
}

/** v2 MetricStatus -> v1 MetricStatus. */
export function metricStatusToV1(m: Rec): Rec {
  const out: Rec = { type: str(m.type) };
  const o = recOrNil(m.object);
  if (o) {
    const cur = rec(o.current);
    const id = rec(o.metric);
    out.object = compact({
      target: reference(o.describedObject),
      metricName: str(id.name),
      currentValue: opt(cur.value) ?? ZERO,
      selector: opt(id.selector),
      averageValue: opt(cur.averageValue),
    });
  }
  const p = recOrNil(m.pods);
  if (p) {
    const id = rec(p.metric);
    out.pods = compact({ metricName: str(id.name), currentAverageValue: opt(rec(p.current).averageValue) ?? ZERO, selector: opt(id.selector) });
  }
  const r = recOrNil(m.resource);
  if (r) {
    const cur = rec(r.current);
    out.resource = compact({ name: str(r.name), currentAverageUtilization: opt(cur.averageUtilization), currentAverageValue: opt(cur.averageValue) ?? ZERO });
  }
  const c = recOrNil(m.containerResource);
  if (c) {
    const cur = rec(c.current);
    out.containerResource = compact({
      name: str(c.name),
      currentAverageUtilization: opt(cur.averageUtilization),
      currentAverageValue: opt(cur.averageValue) ?? ZERO,
      container: str(c.container),
    });
  }
  const e = recOrNil(m.external);
  if (e) {
    const cur = rec(e.current);
    const id = rec(e.metric);
    out.external = compact({
      metricName: str(id.name),
      metricSelector: opt(id.selector),
      currentValue: opt(cur.value) ?? ZERO,
      currentAverageValue: opt(cur.averageValue),
    });
  }
  return out;
}

/** v1 MetricStatus -> v2 MetricStatus. */
export function metricStatusFromV1(m: Rec): Rec {
  const out: Rec = { type: str(m.type) };
  const o = recOrNil(m.object);
  if (o) {
    out.object = {
      metric: identifier(o.metricName, o.selector),
      current: compact({ value: opt(o.currentValue) ?? ZERO, averageValue: opt(o.averageValue) }),
      describedObject: reference(o.target),
    };
  }
  const p = recOrNil(m.pods);
  if (p) out.pods = { metric: identifier(p.metricName, p.selector), current: { averageValue: opt(p.currentAverageValue) ?? ZERO } };
  const r = recOrNil(m.resource);
  if (r) out.resource = { name: str(r.name), current: resourceCurrent(r) };
  const c = recOrNil(m.containerResource);
  if (c) out.containerResource = { name: str(c.name), current: resourceCurrent(c), container: str(c.container) };
  const e = recOrNil(m.external);
  if (e) {
    out.external = {
      metric: identifier(e.metricName, e.metricSelector),
      current: compact({ value: opt(e.currentValue) ?? ZERO, averageValue: opt(e.currentAverageValue) }),
    };
  }
  return out;
}

function resourceCurrent(s: Rec): Rec {
  return compact({ averageValue: opt(s.currentAverageValue) ?? ZERO, averageUtilization: opt(s.currentAverageUtilization) });
}

/** True when a v2 metric is the CPU utilization target v1 carries in targetCPUUtilizationPercentage. */
export function isCPUUtilizationTarget(m: Rec): boolean {
  const r = recOrNil(m.resource);
  return str(m.type) === 'Resource' && r !== undefined && str(r.name) === 'cpu' && isSet(rec(r.target).averageUtilization);
}
