/** Go duration strings (`1h`, `5m30s`, `250ms`, `0`) as Go's time.ParseDuration reads them. */

const NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const MAX_DURATION = (1n << 63n) - 1n;

/** Go's time package quote(): non-ASCII and control bytes as `\xNN`, `"` and `\` escaped. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0x80 || cp < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return `${out}"`;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/**
 * Nanoseconds of a Go duration, exactly as time.ParseDuration accepts it; throws an Error with
 * Go's message (`time: invalid duration "x"`, `time: missing unit in duration "1"`,
 * `time: unknown unit "d" in duration "1d"`) otherwise.
 */
export function parseGoDuration(orig: string): bigint {
  const invalidDuration = () => new Error(`time: invalid duration ${timeQuote(orig)}`);
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalidDuration();
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) throw invalidDuration();
    let i = 0;
    while (isDigit(s[i])) i++;
    const whole = s.slice(0, i);
    s = s.slice(i);
    let fraction = '';
    if (s[0] === '.') {
      let j = 1;
      while (isDigit(s[j])) j++;
      fraction = s.slice(1, j);
      s = s.slice(j);
    }
    if (whole === '' && fraction === '') throw invalidDuration();
    let u = 0;
    while (u < s.length && s[u] !== '.' && !isDigit(s[u])) u++;
    if (u === 0) throw new Error(`time: missing unit in duration ${timeQuote(orig)}`);
    const unitText = s.slice(0, u);
    s = s.slice(u);
    // Own units only: `1constructor` names no unit, not an inherited member.
    const unit = Object.hasOwn(NANOS, unitText) ? NANOS[unitText] : undefined;
    if (unit === undefined) throw new Error(`time: unknown unit ${timeQuote(unitText)} in duration ${timeQuote(orig)}`);
    const v = BigInt(whole === '' ? '0' : whole);
    if (v > (1n << 63n) / unit) throw invalidDuration();
    let part = v * unit;
    if (fraction !== '') {
      // Go keeps the fraction's leading digits in a uint64 and scales with float64.
      const digits = fraction.replace(/0+$/, '').slice(0, 18);
      if (digits !== '') part += BigInt(Math.trunc(Number(digits) * (Number(unit) / 10 ** digits.length)));
      if (part > 1n << 63n) throw invalidDuration();
    }
    total += part;
    if (total > 1n << 63n) throw invalidDuration();
  }
  if (neg) return -total;
  if (total > MAX_DURATION) throw invalidDuration();
  return total;
}

/** Milliseconds of a Go duration (surrounding blanks ignored); throws on malformed input. */
export function parseDuration(text: string): number {
  return Number(parseGoDuration(text.trim())) / 1e6;
}

/** Go's time.Duration.String() of a whole number of nanoseconds (`15s`, `2m0s`, `1.5s`, `500ms`, `0s`). */
export function formatGoDuration(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const neg = nanos < 0n;
  let u = neg ? -nanos : nanos;
  const sign = neg ? '-' : '';
  if (u < 1_000_000_000n) {
    // Below a second Go picks the largest unit that keeps the integer part non-zero.
    const [unit, scale] = u < 1_000n ? ['ns', 1n] : u < 1_000_000n ? ['µs', 1_000n] : ['ms', 1_000_000n];
    return `${sign}${fraction(u, scale)}${unit}`;
  }
  const h = u / 3_600_000_000_000n;
  u -= h * 3_600_000_000_000n;
  const m = u / 60_000_000_000n;
  u -= m * 60_000_000_000n;
  const s = `${fraction(u, 1_000_000_000n)}s`;
  if (h > 0n) return `${sign}${h}h${m}m${s}`;
  if (m > 0n) return `${sign}${m}m${s}`;
  return `${sign}${s}`;
}

/** A Go duration string of milliseconds. */
export function formatDurationMs(ms: number): string {
  return formatGoDuration(BigInt(Math.round(ms * 1e6)));
}

// v/scale with the fraction's trailing zeros dropped, as Go's fmtFrac does.
function fraction(v: bigint, scale: bigint): string {
  const whole = v / scale;
  const rest = v % scale;
  if (rest === 0n) return String(whole);
  const digits = String(scale).length - 1;
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}
