/**
 * The front-proxy identity headers the aggregator sends (client-go's SetAuthProxyHeaders):
 * `X-Remote-User`, one `X-Remote-Group` per group, and `X-Remote-Extra-<key>` per extra
 * value, the key %-escaped where it is not a legal header byte (and `%` itself), as the
 * request-header authenticator on the other side unescapes it.
 */
import type { UserInfo } from '../../machinery/user.js';

/** RFC 7230 token characters besides letters and digits. */
const TOKEN_PUNCTUATION = new Set("!#$&'*+-.^_`|~");

function legalHeaderByte(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || TOKEN_PUNCTUATION.has(String.fromCharCode(b));
}

/** Upstream's headerKeyEscape over the key's UTF-8 bytes. */
export function headerKeyEscape(key: string): string {
  let out = '';
  for (const b of Buffer.from(key, 'utf8')) out += legalHeaderByte(b) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** The identity headers of user, ready for node's request headers (arrays send one line per value). */
export function identityHeaders(user: UserInfo): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = { 'X-Remote-User': user.name };
  if (user.groups.length > 0) headers['X-Remote-Group'] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) {
    if (values.length > 0) headers[`X-Remote-Extra-${headerKeyEscape(key)}`] = [...values];
  }
  return headers;
}
