/**
 * Time-zone names as Go's time.LoadLocation resolves them against the IANA database that
 * kube-apiserver embeds: the error text it gives for a name it cannot load. Node's Intl (full
 * ICU) knows the same database; Go's lookup is case-sensitive while ICU's is not, so a
 * canonical name in the wrong case is refused here as Go would refuse it.
 */

const CANONICAL = new Set<string>([...Intl.supportedValuesOf('timeZone'), 'UTC']);
const CANONICAL_BY_LOWER = new Map([...CANONICAL].map((z) => [z.toLowerCase(), z]));

/** True when ICU resolves the name (any case, aliases included). */
function icuKnows(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Go's time.LoadLocation error for name, or undefined when Go would load it. */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  if (name.includes('..') || name[0] === '/' || name[0] === '\\') return 'time: invalid location name';
  const canonical = CANONICAL_BY_LOWER.get(name.toLowerCase());
  const wrongCase = canonical !== undefined && canonical !== name;
  // ICU also reads UTC offsets (`+05:00`) as zones; Go's database has no such names.
  if (wrongCase || /^[+-]\d/.test(name) || !icuKnows(name)) return `unknown time zone ${name}`;
  return undefined;
}
