/**
 * Ages as upstream prints them: apimachinery's duration.HumanDuration (about 2-3 significant
 * figures) and the printers' translateTimestampSince ("<unknown>" for a missing timestamp).
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Go's integer conversion of a duration quotient: truncation toward zero. */
function whole(ms: number, unit: number): number {
  return Math.trunc(ms / unit);
}

/** duration.HumanDuration of a duration in milliseconds. */
export function humanDuration(ms: number): string {
  // Up to 2s in the future still reads as now, to tolerate clock skew between machines.
  const seconds = whole(ms, SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = whole(ms, MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = whole(ms, HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const dy = days % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${years}y`;
}

/** Go's zero time.Time, which metav1.Time.IsZero treats as unset. */
const ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');

/** Milliseconds of an RFC 3339 timestamp (Time or MicroTime), or undefined when absent or zero. */
export function timestampMillis(timestamp: unknown): number | undefined {
  if (typeof timestamp !== 'string' || timestamp === '') return undefined;
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms) || ms === ZERO_TIME) return undefined;
  return ms;
}

/** translateTimestampSince: the age of a timestamp at `now`, "<unknown>" when unset. */
export function translateTimestampSince(timestamp: unknown, now: Date): string {
  const ms = timestampMillis(timestamp);
  return ms === undefined ? '<unknown>' : humanDuration(now.getTime() - ms);
}
