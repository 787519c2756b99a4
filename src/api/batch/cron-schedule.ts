/**
 * CronJob schedules as upstream parses them: robfig/cron v3's ParseStandard (five fields
 * minute, hour, day of month, month, day of week; `@hourly`-style descriptors; `@every
 * <duration>`; an optional `TZ=`/`CRON_TZ=` prefix), with robfig's error texts, which upstream
 * returns verbatim as the field error's detail.
 */
import { parseGoDuration } from '../../machinery/duration.js';
import { goQuote } from '../../machinery/validation.js';
import { loadLocationError } from './time-zone.js';

interface Bounds {
  min: bigint;
  max: bigint;
  names?: Readonly<Record<string, bigint>>;
}

const MINUTES: Bounds = { min: 0n, max: 59n };
const HOURS: Bounds = { min: 0n, max: 23n };
const DAYS_OF_MONTH: Bounds = { min: 1n, max: 31n };
const MONTHS: Bounds = {
  min: 1n,
  max: 12n,
  names: { jan: 1n, feb: 2n, mar: 3n, apr: 4n, may: 5n, jun: 6n, jul: 7n, aug: 8n, sep: 9n, oct: 10n, nov: 11n, dec: 12n },
};
const DAYS_OF_WEEK: Bounds = { min: 0n, max: 6n, names: { sun: 0n, mon: 1n, tue: 2n, wed: 3n, thu: 4n, fri: 5n, sat: 6n } };

/** The standard parser's fields, in order. */
const FIELDS: readonly Bounds[] = [MINUTES, HOURS, DAYS_OF_MONTH, MONTHS, DAYS_OF_WEEK];

const DESCRIPTORS: ReadonlySet<string> = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Go's strings.Fields separators (unicode.IsSpace). */
const GO_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

class CronError extends Error {}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

/** Go's strconv.Atoi, with its error text. */
function atoi(s: string): bigint {
  const syntax = () => new CronError(`strconv.Atoi: parsing ${goQuote(s)}: invalid syntax`);
  if (!/^[+-]?\d+$/.test(s)) throw syntax();
  const n = BigInt(s);
  if (n > INT64_MAX || n < INT64_MIN) throw new CronError(`strconv.Atoi: parsing ${goQuote(s)}: value out of range`);
  return n;
}

/** robfig's mustParseInt: a non-negative integer. */
function mustParseInt(expr: string): bigint {
  let n: bigint;
  try {
    n = atoi(expr);
  } catch (e) {
    throw new CronError(`failed to parse int from ${expr}: ${(e as Error).message}`);
  }
  if (n < 0n) throw new CronError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names: Bounds['names']): bigint {
  const lower = expr.toLowerCase();
  if (names !== undefined && Object.hasOwn(names, lower)) return names[lower];
  return mustParseInt(expr);
}

/** robfig's getRange: `*`, `?`, `n`, `n-m`, each optionally `/step`. */
function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: bigint;
  let end: bigint;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0], r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1], r.names);
    else throw new CronError(`too many hyphens: ${expr}`);
  }
  let step = 1n;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]);
    // "N/step" means "N-max/step".
    if (singleDigit) end = r.max;
  } else if (rangeAndStep.length > 2) {
    throw new CronError(`too many slashes: ${expr}`);
  }
  if (start < r.min) throw new CronError(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new CronError(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0n) throw new CronError(`step of range should be a positive number: ${expr}`);
}

/** robfig's getField: a comma-separated list of ranges (empty items are skipped, as FieldsFunc does). */
function checkField(field: string, r: Bounds): void {
  for (const expr of field.split(',')) if (expr !== '') checkRange(expr, r);
}

function checkDescriptor(descriptor: string): void {
  if (DESCRIPTORS.has(descriptor)) return;
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    try {
      parseGoDuration(descriptor.slice(every.length));
    } catch (e) {
      throw new CronError(`failed to parse duration ${descriptor}: ${(e as Error).message}`);
    }
    return;
  }
  throw new CronError(`unrecognized descriptor: ${descriptor}`);
}

function checkSchedule(spec: string): void {
  if (spec.length === 0) throw new CronError('empty spec string');
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    // robfig slices up to the first space; without one it would panic, so name the problem.
    if (space < 0) throw new CronError(`invalid timezone specification: ${spec}`);
    const location = spec.slice(spec.indexOf('=') + 1, space);
    const err = loadLocationError(location);
    if (err !== undefined) throw new CronError(`provided bad location ${location}: ${err}`);
    spec = spec.slice(space).trim();
  }
  if (spec.startsWith('@')) {
    checkDescriptor(spec);
    return;
  }
  const fields = spec.split(GO_SPACE).filter((f) => f !== '');
  if (fields.length !== FIELDS.length) {
    throw new CronError(`expected exactly ${FIELDS.length} fields, found ${fields.length}: [${fields.join(' ')}]`);
  }
  for (const [i, f] of fields.entries()) checkField(f, FIELDS[i]);
}

/** robfig/cron's ParseStandard error text for schedule, or undefined when it parses. */
export function scheduleError(schedule: string): string | undefined {
  try {
    checkSchedule(schedule);
    return undefined;
  } catch (e) {
    if (e instanceof CronError) return e.message;
    throw e;
  }
}
