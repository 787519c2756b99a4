/**
 * Go's strconv.ParseBool, which upstream uses for boolean flags (`--feature-gates`) and query
 * parameters (`force`): the spellings it accepts and the error text it returns for the rest.
 */
import { goQuote } from './validation.js';

const TRUE_SPELLINGS: ReadonlySet<string> = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_SPELLINGS: ReadonlySet<string> = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** strconv.ParseBool(text), or undefined where Go returns an error (see parseBoolError). */
export function parseGoBool(text: string): boolean | undefined {
  if (TRUE_SPELLINGS.has(text)) return true;
  return FALSE_SPELLINGS.has(text) ? false : undefined;
}

/** The error strconv.ParseBool returns for text that is not one of its spellings. */
export function parseBoolError(text: string): string {
  return `strconv.ParseBool: parsing ${goQuote(text)}: invalid syntax`;
}

/**
 * A boolean query parameter as upstream's parameter codec converts it (Convert_Slice_string_To_bool):
 * absent is false; present is true unless its first value is `0` or `false` in any case, so
 * `watch=True`, `watch=yes` and `watch=` are all true (the Python client sends `watch=True`).
 */
export function queryBool(values: readonly string[]): boolean {
  if (values.length === 0) return false;
  const v = values[0];
  return !(v === '0' || v.toLowerCase() === 'false');
}
