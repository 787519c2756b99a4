/**
 * A strict parser of the Prometheus text exposition format 0.0.4 for tests: families with
 * their HELP and TYPE, samples with labels (escapes undone) and values. Any line it does not
 * understand, or a sample outside a declared family, throws: a scrape that parses is well formed.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help: string;
  type: string;
  samples: Sample[];
}

const SUFFIXES: Record<string, readonly string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

function parseValue(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  if (text === 'NaN') return Number.NaN;
  const v = Number(text);
  if (Number.isNaN(v)) throw new Error(`bad sample value ${JSON.stringify(text)}`);
  return v;
}

function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;
  let m: RegExpExecArray | null;
  while (re.lastIndex < text.length) {
    m = re.exec(text);
    if (!m) throw new Error(`bad labels {${text}}`);
    out[m[1]] = m[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return out;
}

/** Every family of a scrape, by name. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  let current: Family | undefined;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (meta) {
      const [, what, name, rest] = meta;
      if (!families.has(name)) families.set(name, { name, help: '', type: 'untyped', samples: [] });
      current = families.get(name) as Family;
      if (what === 'HELP') current.help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      else current.type = rest;
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) throw new Error(`unparsable line ${JSON.stringify(line)}`);
    const [, name, labels, value] = sample;
    const family = current;
    const suffixes = family ? (SUFFIXES[family.type] ?? ['']) : [];
    if (!family || !suffixes.some((s) => name === family.name + s)) throw new Error(`sample ${name} outside its family`);
    family.samples.push({ name, labels: parseLabels(labels ?? ''), value: parseValue(value) });
  }
  return families;
}

/** The samples of a family (with a suffix, e.g. `_count`) whose labels include these. */
export function samplesOf(families: Map<string, Family>, family: string, labels: Record<string, string> = {}, suffix = ''): Sample[] {
  const f = families.get(family);
  if (!f) return [];
  return f.samples.filter((s) => s.name === family + suffix && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}
