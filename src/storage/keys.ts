/**
 * Key ordering shared by every store. SQLite compares TEXT keys bytewise in UTF-8, which is
 * Unicode code point order; JavaScript's `<` compares UTF-16 code units, which differs for
 * astral characters. Both stores use code point order so that range results and pagination
 * tokens (startKey) agree between backends.
 */

/** Orders two keys by Unicode code point (= SQLite's BINARY order on UTF-8 text). */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (0xD800–0xDFFF) encode code points above 0xFFFF, so they sort after
      // 0xE000–0xFFFF even though their code units are smaller.
      if (x >= 0xd800 && y >= 0xd800) return surrogateRank(x) - surrogateRank(y);
      return x - y;
    }
  }
  return a.length - b.length;
}

function surrogateRank(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2800 : unit;
}

/**
 * The smallest key greater than every key that starts with prefix, or undefined when no such
 * bound exists (empty prefix): `key >= prefix && key < prefixEnd(prefix)` selects the prefix.
 */
export function prefixEnd(prefix: string): string | undefined {
  let end = prefix;
  while (end.length > 0) {
    const last = end.codePointAt(lastCodePointIndex(end)) as number;
    const head = end.slice(0, lastCodePointIndex(end));
    if (last < 0x10ffff) {
      const next = last === 0xd7ff ? 0xe000 : last + 1;
      return head + String.fromCodePoint(next);
    }
    end = head;
  }
  return undefined;
}

function lastCodePointIndex(s: string): number {
  const i = s.length - 1;
  const unit = s.charCodeAt(i);
  if (i > 0 && unit >= 0xdc00 && unit <= 0xdfff) {
    const high = s.charCodeAt(i - 1);
    if (high >= 0xd800 && high <= 0xdbff) return i - 1;
  }
  return i;
}
