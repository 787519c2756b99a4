/**
 * metav1.Condition lists as upstream's ValidateConditions checks them: unique types that are
 * qualified names, a True/False/Unknown status, a set transition time, a reason in the
 * CamelCase-ish format, and bounded reason and message lengths.
 */
import { duplicate, type FieldError, invalid, notSupported, required, tooLong } from './status.js';
import { regexError, validateLabelName } from './validation.js';
import { str } from './fields.js';

const MAX_REASON_LENGTH = 1024;
const MAX_MESSAGE_LENGTH = 32 * 1024;
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON_RE = new RegExp(`^${REASON_FMT}$`);
const REASON_ERR =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

/** True for an unset or zero metav1.Time. */
function isZeroTime(v: unknown): boolean {
  return typeof v !== 'string' || v === '' || Date.parse(v) === Date.parse('0001-01-01T00:00:00Z');
}

/** Upstream's ValidateCondition. */
function conditionErrors(c: Record<string, unknown>, fldPath: string): FieldError[] {
  const errs = validateLabelName(str(c.type), `${fldPath}.type`);
  const status = str(c.status);
  if (!CONDITION_STATUSES.includes(status)) errs.push(notSupported(`${fldPath}.status`, status, CONDITION_STATUSES));
  if (typeof c.observedGeneration === 'number' && c.observedGeneration < 0) {
    errs.push(invalid(`${fldPath}.observedGeneration`, c.observedGeneration, 'must be greater than or equal to zero'));
  }
  if (isZeroTime(c.lastTransitionTime)) errs.push(required(`${fldPath}.lastTransitionTime`, 'must be set'));
  const reason = str(c.reason);
  if (reason === '') errs.push(required(`${fldPath}.reason`, 'must be set'));
  else {
    if (!REASON_RE.test(reason))
      errs.push(invalid(`${fldPath}.reason`, reason, regexError(REASON_ERR, REASON_FMT, 'my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB')));
    if (Buffer.byteLength(reason) > MAX_REASON_LENGTH) errs.push(tooLong(`${fldPath}.reason`, reason, MAX_REASON_LENGTH));
  }
  const message = str(c.message);
  if (Buffer.byteLength(message) > MAX_MESSAGE_LENGTH) errs.push(tooLong(`${fldPath}.message`, message, MAX_MESSAGE_LENGTH));
  return errs;
}

/** Upstream's ValidateConditions at fldPath. */
export function validateConditions(conditions: unknown, fldPath: string): FieldError[] {
  if (!Array.isArray(conditions)) return [];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  conditions.forEach((raw, i) => {
    const c = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const type = str(c.type);
    if (seen.has(type)) errs.push(duplicate(`${fldPath}[${i}].type`, type));
    else seen.add(type);
    errs.push(...conditionErrors(c, `${fldPath}[${i}]`));
  });
  return errs;
}
