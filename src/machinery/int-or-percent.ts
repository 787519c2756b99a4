/**
 * IntOrString fields that hold a count or a percentage (rolling-update surge and
 * unavailability, disruption budgets), as upstream's util/validation.IsValidPercent and the
 * apps validation helpers (ValidatePositiveIntOrPercent, IsNotMoreThan100Percent,
 * getIntOrPercentValue) read them. On the wire the value is a JSON number or string.
 */
import { goIntOrString } from './go-format.js';
import { type FieldError, invalid } from './status.js';
import { regexError } from './validation.js';

const PERCENT_FMT = '[0-9]+%';
const PERCENT_RE = /^[0-9]+%$/;
const PERCENT_ERR = "a valid percent string must be a numeric string followed by an ending '%'";
const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';

/** Upstream's IsValidPercent. */
export function isValidPercent(percent: string): string[] {
  return PERCENT_RE.test(percent) ? [] : [regexError(PERCENT_ERR, PERCENT_FMT, '1%', '93%')];
}

/** The number before `%` of a valid percent string, or undefined (upstream's getPercentValue). */
export function percentValue(v: unknown): number | undefined {
  if (typeof v !== 'string' || !PERCENT_RE.test(v)) return undefined;
  return Number(v.slice(0, -1));
}

/** Go's strconv.Atoi of a string IntOrString (IntValue): 0 when it is not a plain integer. */
function atoi(s: string): number {
  return /^[+-]?\d+$/.test(s) ? Number(s) : 0;
}

/** Upstream's getIntOrPercentValue: the percentage's number, else the integer value. */
export function intOrPercentValue(v: unknown): number {
  const percent = percentValue(v);
  if (percent !== undefined) return percent;
  if (typeof v === 'string') return atoi(v);
  return typeof v === 'number' ? v : 0;
}

/** Upstream's ValidatePositiveIntOrPercent: a valid percent string, or a non-negative integer. */
export function validatePositiveIntOrPercent(v: unknown, fldPath: string): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => invalid(fldPath, goIntOrString(v), m));
  if (typeof v === 'number') return v < 0 ? [invalid(fldPath, v, IS_NEGATIVE_ERROR_MSG)] : [];
  return [invalid(fldPath, goIntOrString(v), "must be an integer or percentage (e.g '5%%')")];
}

/** Upstream's IsNotMoreThan100Percent: only percentages are bounded. */
export function isNotMoreThan100Percent(v: unknown, fldPath: string): FieldError[] {
  const percent = percentValue(v);
  if (percent === undefined || percent <= 100) return [];
  return [invalid(fldPath, goIntOrString(v), 'must not be greater than 100%')];
}
