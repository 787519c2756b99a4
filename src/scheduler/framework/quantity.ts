/**
 * resource.Quantity text to numbers, as upstream's ParseQuantity + Value()/MilliValue():
 * `<sign><digits>[.<digits>]<suffix>` with binary (Ki..Ei), decimal (n, u, m, k, M..E) or
 * exponent (e3, E-2) suffixes; Value and MilliValue round up (away from zero) to an integer.
 * Parsing is exact (BigInt) and memoised per text, because the same few strings
 * ("100m", "1Gi") arrive with every pod.
 */

const QUANTITY = /^([+-]?)(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

const BINARY: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** Upstream's ErrFormatWrong text. */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const memoValue = new Map<string, number>();
const memoMilli = new Map<string, number>();
const MEMO_LIMIT = 4096;

function scaled(text: string, scaleExp10: number): number {
  const m = QUANTITY.exec(text);
  const whole = m?.[2] ?? '';
  const frac = m?.[3] ?? '';
  if (m === null || (whole === '' && frac === '')) throw new Error(QUANTITY_FORMAT_ERROR);
  const suffix = m[4] ?? '';
  let exp10 = scaleExp10 - frac.length;
  let exp2 = 0;
  if (suffix in BINARY) exp2 = BINARY[suffix];
  else if (suffix in DECIMAL) exp10 += DECIMAL[suffix];
  else if (suffix !== '') exp10 += Number(suffix.slice(1));
  let num = BigInt(whole + frac || '0') << BigInt(exp2);
  let den = 1n;
  if (exp10 >= 0) num *= 10n ** BigInt(exp10);
  else den = 10n ** BigInt(-exp10);
  // Round away from zero, as inf.Dec's RoundUp that Quantity.ScaledValue uses.
  const magnitude = Number((num + den - 1n) / den);
  return m[1] === '-' ? -magnitude : magnitude;
}

function memo(cache: Map<string, number>, q: string | number, scaleExp10: number): number {
  const text = typeof q === 'number' ? String(q) : q.trim();
  let v = cache.get(text);
  if (v === undefined) {
    v = scaled(text, scaleExp10);
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
  return memo(memoMilli, q, 3);
}
