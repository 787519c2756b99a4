/**
 * resource.Quantity as upstream's apimachinery: ParseQuantity (same grammar, same errors),
 * String() (the canonical form stored and served: "0.5" -> "500m", "1024Mi" -> "1Gi"),
 * Cmp, RoundUp and Value()/MilliValue(). Values are exact: a sign-carrying BigInt mantissa
 * times a power of ten, rounded up (away from zero) to nano units as upstream does.
 * Value and MilliValue are memoised per text, because the same few strings ("100m", "1Gi")
 * arrive with every pod.
 */

/** Upstream's ErrFormatWrong text. */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** Upstream's ErrNumeric text. */
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';
/** Upstream's ErrSuffix text. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** An exact quantity: value = unscaled × 10^scale. */
export interface Quantity {
  readonly unscaled: bigint;
  readonly scale: number;
  readonly format: QuantityFormat;
  /** The text as given, kept when upstream keeps it (it was already canonical). */
  readonly text?: string;
}

/** A text that is not a quantity; the message is upstream's. */
export class QuantityParseError extends Error {}

const DECIMAL_SUFFIXES: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIXES).map(([s, e]) => [e, s]));
const BINARY_BY_EXPONENT = new Map(Object.entries(BINARY_SUFFIXES).map(([s, e]) => [e, s]));
const SUFFIX_CHARS = 'eEinumkKMGTP';
const NANO = -9;
const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);

interface QuantityParts {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/** Upstream's parseQuantityString: sign, numerator (leading zeros stripped), denominator, suffix. */
function splitQuantity(str: string): QuantityParts {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') {
    pos++;
  }
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, num: '0', denom: '', suffix: '' };
  const numStart = pos;
  while (pos < end && isDigit(str[pos])) pos++;
  const num = str.slice(numStart, pos) || '0';
  let denom = '';
  if (pos < end && str[pos] === '.') {
    pos++;
    const denomStart = pos;
    while (pos < end && isDigit(str[pos])) pos++;
    denom = str.slice(denomStart, pos);
  }
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos])) pos++;
  if (pos < end && (str[pos] === '-' || str[pos] === '+')) pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
  return { positive, num, denom, suffix: str.slice(suffixStart) };
}

/** Upstream's suffixer.interpret: base, exponent and format of a suffix. */
function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } {
  if (Object.hasOwn(DECIMAL_SUFFIXES, suffix)) return { base: 10, exponent: DECIMAL_SUFFIXES[suffix], format: 'DecimalSI' };
  if (Object.hasOwn(BINARY_SUFFIXES, suffix)) return { base: 2, exponent: BINARY_SUFFIXES[suffix], format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?\d+$/.test(suffix.slice(1))) {
    const exponent = Number(suffix.slice(1));
    // strconv.ParseInt(…, 64) then int32: out-of-range exponents are not quantities.
    if (Number.isSafeInteger(exponent) && Math.abs(exponent) <= 2 ** 31 - 1) return { base: 10, exponent, format: 'DecimalExponent' };
  }
  throw new QuantityParseError(QUANTITY_SUFFIX_ERROR);
}

/** Divides by 10^digits, rounding away from zero (inf.RoundUp). */
function divideUp(v: bigint, digits: number): bigint {
  const d = 10n ** BigInt(digits);
  const q = v / d;
  return q * d === v ? q : v < 0n ? q - 1n : q + 1n;
}

/** Upstream's ParseQuantity; throws QuantityParseError with upstream's message. */
export function parseQuantity(input: string | number): Quantity {
  const str = typeof input === 'number' ? String(input) : input;
  if (str.length === 0) throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
  if (str === '0') return { unscaled: 0n, scale: 0, format: 'DecimalSI', text: str };
  const { positive, num, denom, suffix } = splitQuantity(str);
  const { base, exponent, format } = interpretSuffix(suffix);
  const digits = BigInt(num + denom);
  const sign = positive ? 1n : -1n;
  const kept = keptText(str, num, denom, base, exponent, format, digits);
  if (kept !== undefined) return kept;

  let unscaled: bigint;
  let scale: number;
  if (base === 10) {
    unscaled = sign * digits;
    scale = exponent - denom.length;
  } else {
    unscaled = sign * (digits << BigInt(exponent));
    scale = -denom.length;
  }
  // Non-zero values round up to the nano unit, so asking for a little always gets something.
  if (scale < NANO && unscaled !== 0n) {
    unscaled = divideUp(unscaled, NANO - scale);
    scale = NANO;
  }
  let outFormat = format;
  if (format === 'BinarySI') {
    // Binary quantities are capped at int64; below one unit they are written in decimal.
    if (compareParts(unscaled < 0n ? -unscaled : unscaled, scale, MAX_INT64, 0) > 0) {
      unscaled = unscaled < 0n ? -MAX_INT64 : MAX_INT64;
      scale = 0;
    }
    const magnitude = unscaled < 0n ? -unscaled : unscaled;
    if (magnitude !== 0n && compareParts(magnitude, scale, 1n, 0) < 0) outFormat = 'DecimalSI';
  }
  return { unscaled, scale, format: outFormat };
}

/**
 * Upstream's int64 fast path: when the value fits and the text is already canonical
 * (e.g. "100m", "1Ki", "1.500"), the quantity keeps the text as given.
 */
function keptText(str: string, num: string, denom: string, base: 2 | 10, exponent: number, format: QuantityFormat, digits: bigint): Quantity | undefined {
  let precision: number;
  let scale: number;
  let mantissa = 1n;
  if (base === 10) {
    scale = exponent - denom.length;
    precision = 18 - (num.length + denom.length);
  } else if (exponent >= 0 && denom.length === 0) {
    scale = 0;
    mantissa = 1n << BigInt(exponent);
    precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
  } else {
    return undefined;
  }
  if (precision < 0 || scale < NANO) return undefined;
  const result = digits * mantissa;
  if (result > MAX_INT64 || result < MIN_INT64) return undefined;
  const shifted = num + denom;
  const canonical = format === 'BinarySI' ? exponent % 10 === 0 && (digits & 7n) !== 0n : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
  if (!canonical) return undefined;
  const negative = str[0] === '-';
  return { unscaled: negative ? -result : result, scale, format, text: str };
}

/** Compares a×10^as with b×10^bs without materialising huge powers of ten. */
function compareParts(a: bigint, as: number, b: bigint, bs: number): number {
  if (a === 0n || b === 0n || a < 0n !== b < 0n) return a === b ? 0 : a < b ? -1 : 1;
  const sign = a < 0n ? -1 : 1;
  const ma = (a < 0n ? -a : a).toString().length + as;
  const mb = (b < 0n ? -b : b).toString().length + bs;
  if (ma !== mb) return ma > mb ? sign : -sign;
  const s = Math.min(as, bs);
  const x = a * 10n ** BigInt(as - s);
  const y = b * 10n ** BigInt(bs - s);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Upstream's Quantity.Cmp: -1, 0 or 1. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  return compareParts(a.unscaled, a.scale, b.unscaled, b.scale);
}

/** -1, 0 or 1 as the quantity is negative, zero or positive. */
export function quantitySign(q: Quantity): number {
  return q.unscaled === 0n ? 0 : q.unscaled < 0n ? -1 : 1;
}

/** Upstream's RoundUp(scale): rounds away from zero to 10^scale units; drops the kept text when it rounds. */
export function roundUpQuantity(q: Quantity, scale: number): Quantity {
  if (q.scale >= scale) return q;
  return { unscaled: divideUp(q.unscaled, scale - q.scale), scale, format: q.format };
}

/** Upstream's ScaledValue(scale): the value in 10^scale units, rounded away from zero. */
export function scaledValue(q: Quantity, scale: number): bigint {
  if (q.scale >= scale) return q.unscaled * 10n ** BigInt(q.scale - scale);
  return divideUp(q.unscaled, scale - q.scale);
}

/** Strips factors of ten into the exponent, then lowers it to a multiple of three (AsCanonicalBytes). */
function canonicalDecimal(unscaled: bigint, scale: number): [bigint, number] {
  let amount = unscaled;
  let exponent = scale;
  while (amount % 10n === 0n) {
    amount /= 10n;
    exponent++;
  }
  while (((exponent % 3) + 3) % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  return [amount, exponent];
}

/** Upstream's Quantity.String(): the kept text, or the canonical form of the value. */
export function quantityString(q: Quantity): string {
  if (q.text !== undefined) return q.text;
  if (q.unscaled === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const inDecimalRange = compareParts(q.unscaled, q.scale, -1024n, 0) > 0 && compareParts(q.unscaled, q.scale, 1024n, 0) < 0;
    const integral = q.scale >= 0 || q.unscaled % 10n ** BigInt(-q.scale) === 0n;
    // Small or fractional binary values are written in decimal rather than rounded.
    if (inDecimalRange || !integral) format = 'DecimalSI';
  }
  if (format === 'BinarySI') {
    let amount = scaledValue(q, 0);
    let exponent = 0;
    while (exponent < 60 && amount % 1024n === 0n) {
      amount /= 1024n;
      exponent += 10;
    }
    return `${amount}${BINARY_BY_EXPONENT.get(exponent) ?? ''}`;
  }
  let [amount, exponent] = canonicalDecimal(q.unscaled, q.scale);
  if (format === 'DecimalExponent') return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
  // Beyond exa there is no SI suffix; write the extra digits out.
  while (exponent > 18) {
    amount *= 1000n;
    exponent -= 3;
  }
  return `${amount}${DECIMAL_BY_EXPONENT.get(exponent) ?? ''}`;
}

/** The canonical text of a quantity text (parse then String()); throws QuantityParseError. */
export function canonicalQuantity(text: string | number): string {
  return quantityString(parseQuantity(text));
}

const memoValue = new Map<string, number>();
const memoMilli = new Map<string, number>();
const MEMO_LIMIT = 4096;

function memo(cache: Map<string, number>, q: string | number, scale: number): number {
  const text = typeof q === 'number' ? String(q) : q.trim();
  let v = cache.get(text);
  if (v === undefined) {
    v = Number(scaledValue(parseQuantity(text), scale));
    if (cache.size >= MEMO_LIMIT) cache.clear();
    cache.set(text, v);
  }
  return v;
}

/** Quantity.Value(): the integer value, rounded up; throws on text that is not a quantity. */
export function quantityValue(q: string | number): number {
  return memo(memoValue, q, 0);
}

/** Quantity.MilliValue(): the value × 1000, rounded up (CPU in milli-cores). */
export function quantityMilliValue(q: string | number): number {
  return memo(memoMilli, q, -3);
}
