/**
 * Metrics as Kubernetes components register them (component-base over client_golang): counters,
 * gauges and histograms with labels, a stability level shown in HELP (`[ALPHA] ...`),
 * deprecation (hidden two minor releases after it unless `--show-hidden-metrics-for-version`
 * names the previous minor), `--disabled-metrics`, and `--allow-metric-labels` (a label value
 * outside its allow-list is recorded as `unexpected`). `expose()` renders the Prometheus text
 * format 0.0.4 exactly as client_golang does: families sorted by name, label pairs sorted by
 * name, floats in Go's shortest `%g` form, histograms as cumulative `_bucket`/`_sum`/`_count`.
 * Pure and synchronous: the process updates it, a handler serves it.
 */

/** A summary here has no quantile objectives (client_golang's default since v1): `_sum` and `_count` only. */
export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary';

export interface MetricOptions {
  name: string;
  help: string;
  labels?: readonly string[];
  /** Histogram upper bounds (without +Inf). */
  buckets?: readonly number[];
  /** NONE: a raw Prometheus collector's metric (the process metrics), HELP without a level. */
  stability?: 'ALPHA' | 'STABLE' | 'NONE';
  /** `major.minor.patch` the metric was deprecated in. */
  deprecatedVersion?: string;
}

export interface MetricsSettings {
  /** The component's own release (`1.21`): decides which deprecated metrics are hidden. */
  currentVersion: { major: number; minor: number };
  showHiddenMetricsForVersion?: string;
  disabledMetrics?: readonly string[];
  /** `metric,label` → allowed values. */
  allowListedLabels?: ReadonlyMap<string, readonly string[]>;
}

/** upstream prometheus.ExponentialBuckets. */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  let b = start;
  for (let i = 0; i < count; i++) {
    out.push(b);
    b *= factor;
  }
  return out;
}

/** upstream prometheus.LinearBuckets. */
export function linearBuckets(start: number, width: number, count: number): number[] {
  const out: number[] = [];
  let b = start;
  for (let i = 0; i < count; i++) {
    out.push(b);
    b += width;
  }
  return out;
}

/** Go's strconv.FormatFloat(f, 'g', -1, 64), what the text format prints. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Number.POSITIVE_INFINITY) return '+Inf';
  if (f === Number.NEGATIVE_INFINITY) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expText] = f.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 21) {
    const e = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  // Shortest digits written out in full (JS and Go agree on the digits).
  return exp >= 6 ? `${mant}e+${exp < 10 ? `0${exp}` : exp}` : String(f);
}

interface Series {
  labels: string[];
  value: number;
  /** Recorded since the last reset (a reset keeps series objects so pre-resolved children stay valid). */
  touched: boolean;
  /** Histogram: per-bucket (non-cumulative) counts, then sum. */
  counts?: number[];
  sum?: number;
}

/**
 * One label combination resolved once (its label values checked against the allow-list, its
 * series found): recording through it is a few number updates, for hot paths.
 */
export interface MetricChild {
  inc(by?: number): void;
  add(by: number): void;
  set(value: number): void;
  observe(v: number): void;
}

const NOOP_CHILD: MetricChild = { inc() {}, add() {}, set() {}, observe() {} };

class SeriesChild implements MetricChild {
  constructor(
    private readonly s: Series,
    private readonly buckets: readonly number[],
    private readonly counter: boolean,
  ) {}
  inc(by = 1): void {
    if (this.counter && by < 0) throw new Error('counter cannot decrease');
    this.s.value += by;
    this.s.touched = true;
  }
  add(by: number): void {
    this.s.value += by;
    this.s.touched = true;
  }
  set(value: number): void {
    this.s.value = value;
    this.s.touched = true;
  }
  observe(v: number): void {
    const s = this.s;
    s.sum = (s.sum ?? 0) + v;
    s.value++;
    s.touched = true;
    const counts = s.counts;
    if (counts === undefined) return;
    const b = this.buckets;
    let i = 0;
    while (i < b.length && v > b[i]) i++;
    counts[i]++;
  }
}

/** One metric family; a disabled or hidden one records nothing and is never shown. */
export class Metric {
  private readonly series = new Map<string, Series>();
  readonly labelNames: readonly string[];
  constructor(
    readonly type: MetricType,
    readonly opts: MetricOptions,
    private readonly registry: MetricsRegistry,
  ) {
    this.labelNames = opts.labels ?? [];
  }

  /** The child of these label values, resolved now; a hidden or disabled metric's records nothing. */
  child(values: readonly string[] = []): MetricChild {
    const s = this.get(values, false);
    return s ? new SeriesChild(s, this.opts.buckets ?? [], this.type === 'counter') : NOOP_CHILD;
  }

  private get(values: readonly string[], touch = true): Series | undefined {
    if (!this.registry.isShown(this.opts)) return undefined;
    if (values.length !== this.labelNames.length) throw new Error(`${this.opts.name}: want ${this.labelNames.length} label values, got ${values.length}`);
    const allowed = values.map((v, i) => this.registry.allowedValue(this.opts.name, this.labelNames[i], v));
    const key = allowed.join('\u0000');
    let s = this.series.get(key);
    if (!s) {
      s = { labels: allowed, value: 0, touched: false };
      if (this.type === 'histogram') s.counts = new Array((this.opts.buckets ?? []).length + 1).fill(0);
      if (this.type === 'histogram' || this.type === 'summary') s.sum = 0;
      this.series.set(key, s);
    }
    if (touch) s.touched = true;
    return s;
  }

  /** Counter: add (default 1); negative increments are refused as client_golang panics on them. */
  inc(values: readonly string[] = [], by = 1): void {
    if (this.type === 'counter' && by < 0) throw new Error(`${this.opts.name}: counter cannot decrease`);
    const s = this.get(values);
    if (s) s.value += by;
  }

  /** Gauge: set. */
  set(values: readonly string[], value: number): void {
    const s = this.get(values);
    if (s) s.value = value;
  }

  /** Gauge: add (may be negative). */
  add(values: readonly string[], by: number): void {
    const s = this.get(values);
    if (s) s.value += by;
  }

  /** Histogram or summary: one observation. */
  observe(values: readonly string[], v: number): void {
    const s = this.get(values);
    if (!s) return;
    if (!s.counts) {
      s.sum = (s.sum ?? 0) + v;
      s.value++;
      return;
    }
    const buckets = this.opts.buckets ?? [];
    let i = 0;
    while (i < buckets.length && v > buckets[i]) i++;
    s.counts[i]++;
    s.sum = (s.sum ?? 0) + v;
    s.value++;
  }

  /** Forgets every series (DELETE /metrics resets, as upstream's HandlerWithReset); children stay usable. */
  reset(): void {
    for (const s of this.series.values()) {
      s.value = 0;
      s.touched = false;
      if (s.counts) s.counts.fill(0);
      if (s.sum !== undefined) s.sum = 0;
    }
  }

  /** The family in the text format ('' when it has no series or is not shown). */
  expose(): string {
    if (!this.registry.isShown(this.opts)) return '';
    // A metric without labels exists from its registration (client_golang shows it at zero).
    if (this.labelNames.length === 0 && this.series.size === 0) this.get([]);
    const rows = [...this.series.values()].filter((s) => s.touched || this.labelNames.length === 0);
    if (rows.length === 0) return '';
    const { name } = this.opts;
    let out = `# HELP ${name} ${escapeHelp(this.registry.helpText(this.opts))}\n# TYPE ${name} ${this.type}\n`;
    rows.sort((a, b) => compareLabels(a.labels, b.labels));
    const sortedIdx = this.labelNames.map((n, i) => [n, i] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const s of rows) {
      const pairs = sortedIdx.map(([n, i]) => `${n}="${escapeLabel(s.labels[i])}"`);
      const suffix = pairs.length ? `{${pairs.join(',')}}` : '';
      if (this.type === 'summary') {
        out += `${name}_sum${suffix} ${goFloat(s.sum ?? 0)}\n${name}_count${suffix} ${s.value}\n`;
        continue;
      }
      if (this.type !== 'histogram') {
        out += `${name}${suffix} ${goFloat(s.value)}\n`;
        continue;
      }
      const buckets = this.opts.buckets ?? [];
      let cumulative = 0;
      buckets.forEach((b, i) => {
        cumulative += s.counts?.[i] ?? 0;
        out += `${name}_bucket{${[...pairs, `le="${goFloat(b)}"`].join(',')}} ${cumulative}\n`;
      });
      out += `${name}_bucket{${[...pairs, 'le="+Inf"'].join(',')}} ${s.value}\n`;
      out += `${name}_sum${suffix} ${goFloat(s.sum ?? 0)}\n${name}_count${suffix} ${s.value}\n`;
    }
    return out;
  }
}

function compareLabels(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

const escapeHelp = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (s: string) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/** The error upstream's metrics options give for a bad --show-hidden-metrics-for-version. */
export function validateShowHiddenMetricsVersion(current: { major: number; minor: number }, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const previous = `${current.major}.${current.minor - 1}`;
  if (value !== previous)
    return `--show-hidden-metrics-for-version must be omitted or have the value '${previous}'. Only the previous minor version is allowed`;
  return undefined;
}

export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric>();
  private readonly disabled: Set<string>;
  private readonly collectors: (() => void)[] = [];
  constructor(private readonly settings: MetricsSettings) {
    this.disabled = new Set(settings.disabledMetrics ?? []);
  }

  private register(type: MetricType, opts: MetricOptions): Metric {
    const existing = this.metrics.get(opts.name);
    if (existing) return existing;
    const m = new Metric(type, opts, this);
    this.metrics.set(opts.name, m);
    return m;
  }

  counter(opts: MetricOptions): Metric {
    return this.register('counter', opts);
  }
  gauge(opts: MetricOptions): Metric {
    return this.register('gauge', opts);
  }
  histogram(opts: MetricOptions): Metric {
    return this.register('histogram', opts);
  }
  summary(opts: MetricOptions): Metric {
    return this.register('summary', opts);
  }

  /** Deprecated metrics are hidden once the current minor is past the deprecating one, unless shown on request. */
  isShown(opts: MetricOptions): boolean {
    if (this.disabled.has(opts.name)) return false;
    if (!opts.deprecatedVersion) return true;
    const [maj, min] = opts.deprecatedVersion.split('.').map(Number);
    const cur = this.settings.currentVersion;
    // component-base shouldHide: hidden from the minor release after the deprecating one.
    const hidden = cur.major > maj || (cur.major === maj && cur.minor >= min + 1);
    if (!hidden) return true;
    // A (validated) --show-hidden-metrics-for-version turns every hidden metric back on.
    const show = this.settings.showHiddenMetricsForVersion;
    return show !== undefined && show !== '';
  }

  helpText(opts: MetricOptions): string {
    const level = opts.stability === 'NONE' ? '' : `[${opts.stability ?? 'ALPHA'}] `;
    return opts.deprecatedVersion ? `${level}(Deprecated since ${opts.deprecatedVersion}) ${opts.help}` : `${level}${opts.help}`;
  }

  allowedValue(metric: string, label: string, value: string): string {
    const allowed = this.settings.allowListedLabels?.get(`${metric},${label}`);
    return allowed === undefined || allowed.includes(value) ? value : 'unexpected';
  }

  /** Runs before every exposition: values read at scrape time (process figures, object counts) are set here. */
  onCollect(collect: () => void): void {
    this.collectors.push(collect);
  }

  /** Every shown family in the text format, sorted by name. */
  expose(): string {
    for (const c of this.collectors) c();
    return [...this.metrics.keys()]
      .sort()
      .map((n) => this.metrics.get(n)?.expose() ?? '')
      .join('');
  }

  reset(): void {
    for (const m of this.metrics.values()) m.reset();
  }
}
