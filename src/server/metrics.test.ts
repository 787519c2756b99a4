import assert from 'node:assert/strict';
import { test } from 'node:test';
import { registerAuditMetrics } from './audit/backend.js';
import { createApiServerMetrics, inFlightMetrics, markDeprecatedRequest } from './metrics.js';

const current = { major: 1, minor: 25 };

test('markDeprecatedRequest sets apiserver_requested_deprecated_apis to 1 for the requested version', () => {
  const m = createApiServerMetrics({ currentVersion: current });
  const r = { group: 'batch', version: 'v1beta1', resource: 'cronjobs', subresource: '', removedRelease: '1.25' };
  markDeprecatedRequest(m, r);
  markDeprecatedRequest(m, r);
  assert.match(
    m.registry.expose(),
    /# HELP apiserver_requested_deprecated_apis \[STABLE\] Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release\.\n# TYPE apiserver_requested_deprecated_apis gauge\napiserver_requested_deprecated_apis\{group="batch",removed_release="1\.25",resource="cronjobs",subresource="",version="v1beta1"\} 1\n/,
  );
});

test('audit events count in apiserver_audit_event_total, shown at zero before any', () => {
  const m = createApiServerMetrics({ currentVersion: current });
  const audit = registerAuditMetrics(m.registry);
  assert.match(m.registry.expose(), /\napiserver_audit_event_total 0\n/);
  audit.event();
  audit.event();
  assert.match(
    m.registry.expose(),
    /# HELP apiserver_audit_event_total \[ALPHA\] Counter of audit events generated and sent to the audit backend\.\n# TYPE apiserver_audit_event_total counter\napiserver_audit_event_total 2\n/,
  );
});

test("the in-flight limit's rejections and high watermarks reach the metrics", () => {
  const m = createApiServerMetrics({ currentVersion: current });
  const counts = inFlightMetrics(m);
  counts.enter('readOnly');
  counts.enter('readOnly');
  counts.leave('readOnly');
  counts.onDropped('mutating');
  const text = m.registry.expose();
  assert.match(text, /\napiserver_current_inflight_requests\{request_kind="readOnly"\} 2\n/);
  assert.match(text, /\napiserver_dropped_requests_total\{request_kind="mutating"\} 1\n/);
  // The watermark starts again from what is in flight now.
  assert.match(m.registry.expose(), /\napiserver_current_inflight_requests\{request_kind="readOnly"\} 1\n/);
});

test('--disabled-metrics and --allow-metric-labels apply to the API server metrics', () => {
  const m = createApiServerMetrics({
    currentVersion: current,
    disabledMetrics: ['apiserver_audit_event_total'],
    allowListedLabels: new Map([['apiserver_dropped_requests_total,request_kind', ['readOnly']]]),
  });
  registerAuditMetrics(m.registry).event();
  inFlightMetrics(m).onDropped('mutating');
  const text = m.registry.expose();
  assert.doesNotMatch(text, /apiserver_audit_event_total/);
  assert.match(text, /\napiserver_dropped_requests_total\{request_kind="unexpected"\} 1\n/);
});
