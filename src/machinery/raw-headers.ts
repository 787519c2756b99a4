/**
 * Header values as sent, one entry per header line: Node joins repeated custom headers with
 * ", " on HTTP/1.1, which would split or merge values that may themselves hold commas
 * (group names, extras). rawHeaders keeps them apart, on HTTP/1.1 and HTTP/2 alike.
 */

/** Every value of the header lowerName, in order. */
export function rawHeaderValues(rawHeaders: readonly string[], lowerName: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === lowerName) out.push(rawHeaders[i + 1]);
  return out;
}

/** Values of every header whose lower-cased name starts with prefix, by the rest of the name. */
export function rawHeadersWithPrefix(rawHeaders: readonly string[], prefix: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const values = out.get(rest);
    if (values) values.push(rawHeaders[i + 1]);
    else out.set(rest, [rawHeaders[i + 1]]);
  }
  return out;
}

/** A header key as upstream reads extras: %-unescaped, lower-cased; a malformed escape stays as sent. */
export function unescapeHeaderKey(key: string): string {
  try {
    return decodeURIComponent(key).toLowerCase();
  } catch {
    return key;
  }
}
