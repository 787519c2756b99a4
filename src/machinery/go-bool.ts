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
