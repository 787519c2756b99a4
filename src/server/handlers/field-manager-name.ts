/** The name a write's field ownership is recorded under when no fieldManager is given, as upstream's handlers derive it. */

/** Upstream's FieldManagerMaxLength: the User-Agent prefix is cut to fit it. */
const FIELD_MANAGER_MAX_BYTES = 128;

const NOT_PRINTABLE = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

/** prefixFromUserAgent: the product before the first `/`, printable characters, at most 128 bytes. */
export function prefixFromUserAgent(userAgent: string): string {
  let out = '';
  let bytes = 0;
  for (const ch of userAgent.split('/')[0]) {
    if (NOT_PRINTABLE.test(ch)) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > FIELD_MANAGER_MAX_BYTES) break;
    out += ch;
    bytes += n;
  }
  return out;
}
