import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exponentialBuckets, goFloat, MetricsRegistry, validateShowHiddenMetricsVersion } from './metrics.js';

const V121 = { major: 1, minor: 21 };

test("goFloat prints as Go's strconv 'g' with the shortest digits", () => {
  assert.equal(goFloat(0.001), '0.001');
  assert.equal(goFloat(1e-5), '1e-05');
  assert.equal(goFloat(1.5e-5), '1.5e-05');
  assert.equal(goFloat(16.384), '16.384');
  assert.equal(goFloat(100000), '100000');
  assert.equal(goFloat(1e6), '1e+06');
  assert.equal(goFloat(Number.POSITIVE_INFINITY), '+Inf');
  assert.equal(goFloat(0), '0');
});

test('counters, gauges and histograms in the text format, families and labels sorted', () => {
  const r = new MetricsRegistry({ currentVersion: V121 });
  const c = r.counter({ name: 'b_total', help: 'B.', labels: ['z', 'a'] });
  const h = r.histogram({ name: 'a_seconds', help: 'A.', buckets: [0.1, 1] });
  c.inc(['1', '2']);
  c.inc(['0', '9'], 2);
  h.observe([], 0.05);
  h.observe([], 0.5);
  h.observe([], 5);
  assert.equal(
    r.expose(),
    [
      '# HELP a_seconds [ALPHA] A.',
      '# TYPE a_seconds histogram',
      'a_seconds_bucket{le="0.1"} 1',
      'a_seconds_bucket{le="1"} 2',
      'a_seconds_bucket{le="+Inf"} 3',
      'a_seconds_sum 5.55',
      'a_seconds_count 3',
      '# HELP b_total [ALPHA] B.',
      '# TYPE b_total counter',
      'b_total{a="9",z="0"} 2',
      'b_total{a="2",z="1"} 1',
      '',
    ].join('\n'),
  );
  assert.throws(() => c.inc(['x', 'y'], -1), /counter cannot decrease/);
});

test('deprecated metrics hide from the next minor unless shown; disabled ones never show', () => {
  const opts = { name: 'old_seconds', help: 'Old.', buckets: exponentialBuckets(1, 2, 2), deprecatedVersion: '1.19.0' };
  const hidden = new MetricsRegistry({ currentVersion: V121 });
  hidden.histogram(opts).observe([], 1);
  assert.equal(hidden.expose(), '');
  const shown = new MetricsRegistry({ currentVersion: V121, showHiddenMetricsForVersion: '1.20' });
  shown.histogram(opts).observe([], 1);
  assert.match(shown.expose(), /^# HELP old_seconds \[ALPHA\] \(Deprecated since 1\.19\.0\) Old\.$/m);
  const disabled = new MetricsRegistry({ currentVersion: V121, disabledMetrics: ['x_total'] });
  disabled.counter({ name: 'x_total', help: 'X.' }).inc();
  assert.equal(disabled.expose(), '');
  assert.equal(validateShowHiddenMetricsVersion(V121, '1.20'), undefined);
  assert.equal(
    validateShowHiddenMetricsVersion(V121, '1.19'),
    "--show-hidden-metrics-for-version must be omitted or have the value '1.20'. Only the previous minor version is allowed",
  );
});

test('a label value outside its allow-list is recorded as unexpected', () => {
  const r = new MetricsRegistry({ currentVersion: V121, allowListedLabels: new Map([['q_total,queue', ['active']]]) });
  const c = r.counter({ name: 'q_total', help: 'Q.', labels: ['queue'] });
  c.inc(['active']);
  c.inc(['weird']);
  assert.match(r.expose(), /q_total\{queue="active"\} 1\nq_total\{queue="unexpected"\} 1/);
});

test('a summary exposes its sum and count', () => {
  const r = new MetricsRegistry({ currentVersion: V121 });
  const m = r.summary({ name: 's_seconds', help: 'S.', labels: ['operation'] });
  m.observe(['bind'], 0.25);
  m.observe(['bind'], 0.5);
  assert.equal(
    r.expose(),
    '# HELP s_seconds [ALPHA] S.\n# TYPE s_seconds summary\ns_seconds_sum{operation="bind"} 0.75\ns_seconds_count{operation="bind"} 2\n',
  );
});

test('a child records without resolving labels again, and stays valid across a reset', () => {
  const registry = new MetricsRegistry({ currentVersion: { major: 1, minor: 25 } });
  const h = registry.histogram({ name: 'h_seconds', help: 'H.', labels: ['verb'], buckets: [0.1, 1] });
  const get = h.child(['GET']);
  get.observe(0.05);
  get.observe(2);
  assert.match(
    registry.expose(),
    /h_seconds_bucket\{verb="GET",le="0\.1"\} 1\nh_seconds_bucket\{verb="GET",le="1"\} 1\nh_seconds_bucket\{verb="GET",le="\+Inf"\} 2\nh_seconds_sum\{verb="GET"\} 2\.05\n/,
  );
  registry.reset();
  assert.equal(registry.expose(), '', 'a reset series is gone until recorded again');
  get.observe(0.5);
  assert.match(registry.expose(), /h_seconds_count\{verb="GET"\} 1\n/);
  const disabled = new MetricsRegistry({ currentVersion: { major: 1, minor: 25 }, disabledMetrics: ['c_total'] });
  disabled.counter({ name: 'c_total', help: 'C.' }).child().inc();
  assert.equal(disabled.expose(), '');
});
