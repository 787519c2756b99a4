/**
 * Integer query parameters as upstream's parameter codec converts them
 * (runtime.Convert_Slice_string_To_int64 / _To_Pointer_int64): the first value goes through
 * strconv.ParseInt(s, 10, 64), and any error is returned as is (the handler answers 400 with it).
 * There is no trimming and no fallback: `limit=` and `limit=abc` are both refused.
 */
import { goQuote } from './validation.js';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** strconv.ParseInt(text, 10, 64): the value, or Go's error text. */
export function parseGoInt64(text: string): { value: bigint } | { error: string } {
  // Base 10 takes an optional sign and digits only (underscores need base 0).
  if (!/^[+-]?[0-9]+$/.test(text)) return { error: `strconv.ParseInt: parsing ${goQuote(text)}: invalid syntax` };
  const value = BigInt(text);
  if (value < INT64_MIN || value > INT64_MAX) return { error: `strconv.ParseInt: parsing ${goQuote(text)}: value out of range` };
  return { value };
}

/**
 * An int64 query parameter: undefined when absent, else its first value. Values beyond 2^53 are
 * valid int64s upstream; they come back clamped to the nearest safe JS integer, which every
 * reader (limits, timeouts, grace periods) treats as "effectively unbounded" just as Go would.
 */
export function queryInt64(values: readonly string[]): number | { error: string } | undefined {
  if (values.length === 0) return undefined;
  const parsed = parseGoInt64(values[0]);
  if ('error' in parsed) return parsed;
  const max = BigInt(Number.MAX_SAFE_INTEGER);
  const v = parsed.value;
  return Number(v > max ? max : v < -max ? -max : v);
}
