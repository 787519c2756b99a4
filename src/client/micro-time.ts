/** Kubernetes' MicroTime and Time wire forms. */

/** RFC 3339 with six fractional digits (`2026-11-26T01:39:19.123000Z`), as metav1.MicroTime marshals. */
export function microTime(ms: number): string {
  // toISOString always ends in `.sssZ`: three more digits go before the Z (a slice, not a regex: one per event).
  return `${new Date(ms).toISOString().slice(0, -1)}000Z`;
}

/** RFC 3339 in whole seconds, as metav1.Time marshals. */
export function rfc3339(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, -5)}Z`;
}
