/** How upstream's SetDefaults_* fill a field (a nil pointer, an empty string), and a new object's status. */

/** Sets obj[key] to value when the client left it unset (absent or null: a nil Go pointer). */
export function defaultIfUnset(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (obj[key] === undefined || obj[key] === null) obj[key] = value;
}

/** Sets obj[key] to value when the client left it empty (an empty Go string). */
export function defaultIfEmpty(obj: Record<string, unknown>, key: string, value: string): void {
  if (typeof obj[key] !== 'string' || obj[key] === '') obj[key] = value;
}

/**
 * The status a new object starts with: upstream resets it to the empty struct, which serves as
 * its fields without omitempty at their zero values (`{}` when every field is omitempty).
 */
export function resetStatus(obj: Record<string, unknown>, zero: Record<string, unknown> = {}): void {
  obj.status = { ...zero };
}
